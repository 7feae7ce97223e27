/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted provided that the following conditions
 * are met:
 *
 *   1. Redistributions of source code must retain the above copyright
 *      notice, this list of conditions and the following disclaimer.
 *   2. Redistributions in binary form must reproduce the above copyright
 *      notice, this list of conditions and the following disclaimer in the
 *      documentation and/or other materials provided with the distribution.
 *   3. Neither the name of the copyright holders nor the names of its
 *      contributors may be used to endorse or promote products derived
 *      from this software without specific prior written permission.
 *
 * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS
 * ``AS IS'' AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT
 * LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR
 * A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT
 * OWNER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
 * SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
 * LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
 * DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
 * THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
 * (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
 * OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
 *
 * Compressed savefiles: the decisions the dumper takes block by block,
 * as pure functions of the results of earlier blocks, so that they can
 * be tested with made-up results and decide alike however the blocks
 * are compressed (see sf-compress-policy.c).
 */

#ifndef sf_compress_policy_h
#define	sf_compress_policy_h

#include <stddef.h>
#include <sys/types.h>

/*
 * The decision for block n is taken from the results of blocks up to
 * n - SFC_SKIP_LAG only, so that it is the same however many blocks
 * are being compressed at once, and the same input gives the same file
 * either way.
 */
#define	SFC_SKIP_LAG	4

/* The result of a block, as the decisions see it. */
enum pcapint_sfc_block_result {
	SFC_BLOCK_UNKNOWN,		/* none yet (the first blocks) */
	SFC_BLOCK_COMPRESSED,
	SFC_BLOCK_INCOMPRESSIBLE
};

/* What the skip remembers from one block to the next. */
struct pcapint_sfc_skip {
	u_int	stored_run;	/* incompressible blocks in a row */
	u_int	skip_count;	/* blocks stored while skipping */
};

/*
 * Whether to try the codec on the next block, given the skip's state and
 * the result of the block SFC_SKIP_LAG before it; *next gets the state
 * for the block after.  Returns 1 to try the codec, 0 to store.
 */
extern int pcapint_sfc_policy_try_codec(const struct pcapint_sfc_skip *cur,
    enum pcapint_sfc_block_result lagged, struct pcapint_sfc_skip *next);

/*
 * How a block of in_len bytes that came out as out_len bytes (stored
 * when the codec gave up on it) counts.
 */
extern enum pcapint_sfc_block_result pcapint_sfc_policy_result(size_t in_len,
    size_t out_len, int stored);

#endif
