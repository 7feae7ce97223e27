/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
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
 * n - SFC_SKIP_LAG only, so that it is the same whether or not blocks
 * are compressed in parallel (sf-compress-jobs.c, where this is the
 * number of block slots), and the same input gives the same file either
 * way.
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
