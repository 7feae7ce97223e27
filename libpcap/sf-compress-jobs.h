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
 * Compressing the blocks of a compressed dumper on more than one CPU:
 * a few block slots and compression helper threads, used by the writer
 * thread of sf-compress-thread.c.  See sf-compress-jobs.c for why and how.
 */

#ifndef sf_compress_jobs_h
#define	sf_compress_jobs_h

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pcap/pcap.h"
#include "sf-compress-block.h"
#include "sf-compress-policy.h"

/*
 * Block slots.  Block number n (counted from 0 when the jobs start)
 * always goes in slot n % SFC_JOBS_SLOTS, and a slot is only filled
 * again once its previous block has been written, so when block n is
 * submitted block n - SFC_JOBS_SLOTS is on disk, whatever the threads
 * did: the planner bases the incompressible-block skip on exactly that
 * block's result, which keeps the output the same with and without
 * helpers.
 * Four slots (SFC_SKIP_LAG): one being filled, one for each of two
 * compressing threads, one compressed and waiting for its write().
 */
#define	SFC_JOBS_SLOTS		SFC_SKIP_LAG
#define	SFC_JOBS_MAX_HELPERS	(SFC_JOBS_SLOTS - 1)

struct pcapint_sfc_jobs;

/*
 * The CPUs the calling thread may run on: its affinity, which helpers
 * inherit, or the CPUs online; at least 1.
 */
u_int	pcapint_sfc_jobs_cpus(void);

/*
 * How many helper threads a writer thread should start: one less than
 * the CPUs it may run on, at most SFC_JOBS_MAX_HELPERS, and one on a
 * single CPU, where the helper compresses while the writer waits in
 * write().  Call it on the writer thread.
 */
u_int	pcapint_sfc_jobs_helpers(void);

/*
 * Allocate the slots, each with its own encoder, and start nhelpers
 * helper threads, from the calling thread (the writer thread), whose
 * signal mask, CPU affinity and, on Linux, nice value they inherit.
 * Returns NULL with errbuf filled in on failure.
 */
struct pcapint_sfc_jobs *pcapint_sfc_jobs_start(
    const struct pcapint_sfc_encoder *codec, int level, size_t block_size,
    u_int nhelpers, char *errbuf);

/* How many helpers were started. */
u_int	pcapint_sfc_jobs_nhelpers(struct pcapint_sfc_jobs *);

/* The slot of block n, for the writer thread to fill. */
struct pcapint_sfc_block *pcapint_sfc_jobs_slot(struct pcapint_sfc_jobs *,
    uint64_t n);

/* Queue block n, filled in, for compression. */
void	pcapint_sfc_jobs_submit(struct pcapint_sfc_jobs *, uint64_t n);

/* 1 if block n is compressed (pcapint_sfc_jobs_wait() would not wait). */
int	pcapint_sfc_jobs_ready(struct pcapint_sfc_jobs *, uint64_t n);

/*
 * Wait until block n is compressed, compressing queued blocks on this
 * thread meanwhile, and give its slot back to the caller.
 */
struct pcapint_sfc_block *pcapint_sfc_jobs_wait(struct pcapint_sfc_jobs *,
    uint64_t n);

/*
 * Stop and join the helpers and free everything; blocks still queued
 * are thrown away (the caller waited for those it wanted).
 */
void	pcapint_sfc_jobs_stop(struct pcapint_sfc_jobs *);

#endif
