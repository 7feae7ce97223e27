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
 * Compressed savefiles: whether a block is worth trying to compress.
 *
 * Traffic that is already compressed or encrypted does not shrink, and
 * trying costs the compressor's CPU on every block for nothing.  So
 * after SFC_SKIP_AFTER blocks in a row that did not compress, the codec
 * is tried only on every SFC_SKIP_EVERY-th block and the others are
 * stored at once; one block that compresses again ends the skipping.
 * On random payloads that makes compressing cheaper than writing the
 * records plain, as storing a block is one copy into its container.
 *
 * Results are judged SFC_SKIP_LAG blocks late, so that blocks compressed
 * in parallel skip exactly as blocks compressed one by one: random
 * payloads are stored without trying from the 9th block on, rather than
 * the 5th.
 *
 * These are pure functions of their arguments: the dumper keeps the
 * results, and feeds them in.
 */

#include <config.h>

#include "pcap-int.h"
#include "sf-compress-policy.h"

#define	SFC_SKIP_AFTER		4
#define	SFC_SKIP_EVERY		16

int
pcapint_sfc_policy_try_codec(const struct pcapint_sfc_skip *cur,
    enum pcapint_sfc_block_result lagged, struct pcapint_sfc_skip *next)
{
	*next = *cur;
	switch (lagged) {

	case SFC_BLOCK_UNKNOWN:
		break;

	case SFC_BLOCK_INCOMPRESSIBLE:
		next->stored_run++;
		break;

	case SFC_BLOCK_COMPRESSED:
		next->stored_run = 0;
		next->skip_count = 0;
		break;
	}
	if (next->stored_run >= SFC_SKIP_AFTER)
		return ((++next->skip_count % SFC_SKIP_EVERY) == 0);
	return (1);
}

/*
 * A block that saved less than 1/32 of its size counts as
 * incompressible: random payloads behind compressible record headers
 * land there.
 */
enum pcapint_sfc_block_result
pcapint_sfc_policy_result(size_t in_len, size_t out_len, int stored)
{
	if (stored || out_len > in_len - in_len / 32)
		return (SFC_BLOCK_INCOMPRESSIBLE);
	return (SFC_BLOCK_COMPRESSED);
}
