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
 * Compressing a dumper's blocks on more than one CPU.
 *
 * Why: with a writer thread, copying a savefile into a compressed one
 * is bounded by that one thread, which copies every record out of the ring
 * into a block, compresses the block and write()s it, while the thread
 * reading the savefile mostly waits for room in the ring.  Compression
 * is almost all of the writer's CPU and each block is compressed on its
 * own, so blocks can be compressed side by side.
 *
 * How: a fixed set of SFC_JOBS_SLOTS slots, each with its input block,
 * output buffer and encoder.  The writer thread fills the slot of block
 * n, submits it, and goes on filling the next slot; helper threads take
 * the oldest submitted block, compress it and mark it done; the writer
 * thread write()s the blocks strictly in order, one write() per block as
 * without helpers, and reuses a slot only once its block is written.
 * When the writer thread needs a slot whose block is not compressed yet,
 * it compresses a queued block itself rather than wait idle, so with
 * one helper two CPUs compress.  Memory stays at SFC_JOBS_SLOTS blocks,
 * their output buffers and encoders, however many helpers there are.
 *
 * A writer that may run on one CPU only still gets one helper: then
 * the two take turns on that CPU, and what the helper buys is overlap.
 * A writer alone compresses a block, then blocks in write() while the
 * CPU idles, then compresses the next; with a helper, the next block is
 * compressed while write() waits, so a slow disk is kept busy all the
 * time and the CPU that compressing costs is no longer lost to it.
 * Taking turns costs two context switches per block.
 *
 * Everything shared (the slots' states, the queue, the stop request) is
 * under one mutex: it is taken a few times per block (1 MiB by
 * default), not per record, and a mutex hand-over is what orders the
 * slot's contents between the writer and a helper (the writer fills a slot, then marks
 * it queued under the mutex; a helper claims it under the mutex, so it
 * sees the filled block; the same the other way for the results).
 *
 * Helper threads are started by the writer thread, so they inherit its
 * blocked signals, its CPU affinity (pinned to a CPU, they
 * share its CPU, and pcapint_sfc_jobs_helpers() then starts one) and,
 * on Linux, where the nice value is per thread, its lowered priority.
 * They are named "pcap-compress" where threads can be named, as the
 * writer thread is named "pcap-writer", so they can be told apart in
 * top -H and ps -L.
 */

#include <config.h>

#include "ftmacros.h"	/* _GNU_SOURCE, for CPU affinity */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pcap-int.h"
#include "sf-compress-jobs.h"
#include "sf-writer.h"

enum {
	SLOT_FREE,	/* the writer thread's */
	SLOT_QUEUED,	/* submitted, waiting for a thread */
	SLOT_RUNNING,	/* being compressed */
	SLOT_DONE	/* compressed, until the writer takes it back */
};

struct pcapint_sfc_jobs {
	const struct pcapint_sfc_encoder *codec;
	struct pcapint_sfc_block slot[SFC_JOBS_SLOTS];

	/* Under the lock. */
	pthread_mutex_t	lock;
	pthread_cond_t	work;		/* helpers wait for a queued block */
	pthread_cond_t	done;		/* the writer waits for a result */
	int		state[SFC_JOBS_SLOTS];
	uint64_t	seq[SFC_JOBS_SLOTS];	/* block number in the slot */
	int		stop;

	u_int		nhelpers;
	pthread_t	helper[SFC_JOBS_MAX_HELPERS];
};

u_int
pcapint_sfc_jobs_cpus(void)
{
	long n;
#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
	cpu_set_t cpus;
#endif

	n = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
	/*
	 * Helpers inherit the writer's affinity: count the CPUs it may
	 * use, not the machine's.
	 */
	if (pthread_getaffinity_np(pthread_self(), sizeof(cpus), &cpus) == 0 &&
	    CPU_COUNT(&cpus) < n)
		n = CPU_COUNT(&cpus);
#endif
	return (n > 1 ? (u_int)n : 1);
}

u_int
pcapint_sfc_jobs_helpers(void)
{
	u_int n = pcapint_sfc_jobs_cpus();

	/* On one CPU, one helper: see the top of this file. */
	if (n <= 1)
		return (1);
	if (n - 1 > SFC_JOBS_MAX_HELPERS)
		return (SFC_JOBS_MAX_HELPERS);
	return (n - 1);
}

/*
 * The queued block with the lowest number, claimed for the caller, or
 * -1; under the lock.  Oldest first, because the writer writes in order
 * and waits for the oldest.
 */
static int
jobs_claim(struct pcapint_sfc_jobs *j)
{
	int i, best;

	best = -1;
	for (i = 0; i < SFC_JOBS_SLOTS; i++) {
		if (j->state[i] == SLOT_QUEUED &&
		    (best == -1 || j->seq[i] < j->seq[best]))
			best = i;
	}
	if (best != -1)
		j->state[best] = SLOT_RUNNING;
	return (best);
}

/* Compress slot i, claimed under the lock, which is held on return. */
static void
jobs_run(struct pcapint_sfc_jobs *j, int i)
{
	pthread_mutex_unlock(&j->lock);
	pcapint_sfc_block_compress(j->codec, &j->slot[i]);
	pthread_mutex_lock(&j->lock);
	j->state[i] = SLOT_DONE;
	pthread_cond_broadcast(&j->done);
}

static void *
jobs_helper(void *arg)
{
	struct pcapint_sfc_jobs *j = arg;
	int i;

	pcapint_writer_set_name("pcap-compress");
	pthread_mutex_lock(&j->lock);
	while (!j->stop) {
		i = jobs_claim(j);
		if (i == -1)
			pthread_cond_wait(&j->work, &j->lock);
		else
			jobs_run(j, i);
	}
	pthread_mutex_unlock(&j->lock);
	return (NULL);
}

static void
jobs_free(struct pcapint_sfc_jobs *j)
{
	int i;

	for (i = 0; i < SFC_JOBS_SLOTS; i++) {
		if (j->slot[i].enc != NULL)
			j->codec->enc_free(j->slot[i].enc);
		free(j->slot[i].in);
		free(j->slot[i].out);
	}
	pthread_cond_destroy(&j->done);
	pthread_cond_destroy(&j->work);
	pthread_mutex_destroy(&j->lock);
	free(j);
}

struct pcapint_sfc_jobs *
pcapint_sfc_jobs_start(const struct pcapint_sfc_encoder *codec, int level,
    size_t block_size, u_int nhelpers, char *errbuf)
{
	struct pcapint_sfc_jobs *j;
	struct pcapint_sfc_block *b;
	int i, err;

	if (nhelpers > SFC_JOBS_MAX_HELPERS)
		nhelpers = SFC_JOBS_MAX_HELPERS;
	j = calloc(1, sizeof(*j));
	if (j == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, errno,
		    "malloc");
		return (NULL);
	}
	j->codec = codec;
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->work, NULL);
	pthread_cond_init(&j->done, NULL);
	for (i = 0; i < SFC_JOBS_SLOTS; i++) {
		b = &j->slot[i];
		b->enc = codec->enc_create(level, block_size, errbuf);
		if (b->enc == NULL) {
			jobs_free(j);
			return (NULL);
		}
		b->warm_level = SFC_COLD_LEVEL;
		b->out_size = codec->enc_bound(b->enc, block_size);
		b->in = malloc(block_size);
		b->out = malloc(b->out_size);
		if (b->in == NULL || b->out == NULL) {
			pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
			    errno, "malloc");
			jobs_free(j);
			return (NULL);
		}
	}
	/* Default attributes: inherit the writer's affinity and nice. */
	for (j->nhelpers = 0; j->nhelpers < nhelpers; j->nhelpers++) {
		err = pthread_create(&j->helper[j->nhelpers], NULL,
		    jobs_helper, j);
		if (err != 0) {
			pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
			    err, "cannot start a compression thread");
			pcapint_sfc_jobs_stop(j);
			return (NULL);
		}
	}
	return (j);
}

u_int
pcapint_sfc_jobs_nhelpers(struct pcapint_sfc_jobs *j)
{
	return (j->nhelpers);
}

struct pcapint_sfc_block *
pcapint_sfc_jobs_slot(struct pcapint_sfc_jobs *j, uint64_t n)
{
	return (&j->slot[n % SFC_JOBS_SLOTS]);
}

void
pcapint_sfc_jobs_submit(struct pcapint_sfc_jobs *j, uint64_t n)
{
	int i = (int)(n % SFC_JOBS_SLOTS);

	/*
	 * A block to be stored is only copied into its container: doing
	 * that here, while the block is in this CPU's cache, is cheaper
	 * than handing it to another CPU.  On 200 MB of random 1518-byte
	 * frames, where nearly every block is stored, the hand-over made
	 * the copy slower than without helpers.
	 */
	if (!j->slot[i].try_codec)
		pcapint_sfc_block_compress(j->codec, &j->slot[i]);
	pthread_mutex_lock(&j->lock);
	j->seq[i] = n;
	if (j->slot[i].try_codec) {
		j->state[i] = SLOT_QUEUED;
		pthread_cond_signal(&j->work);
	} else
		j->state[i] = SLOT_DONE;
	pthread_mutex_unlock(&j->lock);
}

int
pcapint_sfc_jobs_ready(struct pcapint_sfc_jobs *j, uint64_t n)
{
	int i = (int)(n % SFC_JOBS_SLOTS), ready;

	pthread_mutex_lock(&j->lock);
	ready = j->state[i] == SLOT_DONE;
	pthread_mutex_unlock(&j->lock);
	return (ready);
}

struct pcapint_sfc_block *
pcapint_sfc_jobs_wait(struct pcapint_sfc_jobs *j, uint64_t n)
{
	int i = (int)(n % SFC_JOBS_SLOTS), k;

	pthread_mutex_lock(&j->lock);
	while (j->state[i] != SLOT_DONE) {
		/*
		 * Not done: help rather than wait, oldest first, which
		 * is block n itself unless a helper has it already.
		 */
		k = jobs_claim(j);
		if (k != -1)
			jobs_run(j, k);
		else
			pthread_cond_wait(&j->done, &j->lock);
	}
	j->state[i] = SLOT_FREE;
	pthread_mutex_unlock(&j->lock);
	return (&j->slot[i]);
}

void
pcapint_sfc_jobs_stop(struct pcapint_sfc_jobs *j)
{
	u_int h;

	pthread_mutex_lock(&j->lock);
	j->stop = 1;
	pthread_cond_broadcast(&j->work);
	pthread_mutex_unlock(&j->lock);
	for (h = 0; h < j->nhelpers; h++)
		pthread_join(j->helper[h], NULL);
	jobs_free(j);
}
