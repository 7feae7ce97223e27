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
 * A writer thread for savefiles: the ring and the state that its two
 * sides share, the writer thread (sf-writer.c) and the producer
 * (sf-writer-put.c).  See sf-writer.c for how they hand bytes over.
 */

#ifndef sf_writer_ring_h
#define	sf_writer_ring_h

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "sf-writer.h"

/*
 * How long an idle writer sleeps before it looks at the ring again by
 * itself.  It bounds how long a few packets can wait in the ring when
 * the producer chose not to wake the writer for them.
 */
#ifndef WRITER_IDLE_MS
#define	WRITER_IDLE_MS		50
#endif

/* Keep the two sides' indices on cache lines of their own. */
#define	CACHE_LINE		64

struct pcapint_writer {
	unsigned char	*ring;
	size_t		size;		/* a power of two */
	size_t		wake_bytes;
	const struct pcapint_writer_ops *ops;
	void		*ctx;

	/* Producer's side. */
	char		pad0[CACHE_LINE];
	uint64_t	head;		/* bytes ever put; release-stored */
	uint64_t	tail_seen;	/* producer's last view of tail */
	uint64_t	records_in;
	uint64_t	bytes_in;
	uint64_t	dropped_full;
	uint64_t	dropped_error;
	size_t		high_water_seen; /* the producer's measure of it */

	/* Writer's side. */
	char		pad1[CACHE_LINE];
	uint64_t	tail;		/* bytes ever consumed; release-stored */
	uint64_t	flush_seen;	/* last flush request carried out */
	size_t		high_water;
	int		error;		/* sticky errno value */
	int		sleeping;	/* writer waits on "wake" */
	int		nice_incr;	/* read once, at the thread's start */
	int		blocking;	/* put waits for room */
	int		waiting;	/* a blocking put waits on "room" */

	/* Requests, under the mutex. */
	char		pad2[CACHE_LINE];
	pthread_mutex_t	lock;
	pthread_cond_t	wake;		/* the writer waits here */
	pthread_cond_t	done;		/* flush and stop wait here */
	pthread_cond_t	room;		/* a blocking put waits here */
	clockid_t	clock;		/* the clock of their deadlines */
	int		started;	/* the thread has set itself up */
	int		start_err;	/* errno value of that, or 0 */
	uint64_t	flush_req;
	uint64_t	flush_done;
	int		stop;
	int		stalled;	/* a flush gave up waiting */

	pthread_t	thread;
};

static inline size_t
ring_used(uint64_t head, uint64_t tail)
{
	return ((size_t)(head - tail));
}

#endif
