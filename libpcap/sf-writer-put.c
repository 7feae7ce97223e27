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
 * A writer thread for savefiles: the producer's side, which puts
 * records into the ring (pcapint_writer_put() and _put2()); see
 * sf-writer.c.
 */

#include <config.h>

#include "ftmacros.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "pcap-int.h"
#include "sf-writer-ring.h"
#include "sf-writer-clock.h"

static void
ring_copy(struct pcapint_writer *w, uint64_t pos, const void *src, size_t len)
{
	size_t off = (size_t)(pos & (w->size - 1));
	size_t first = w->size - off;

	if (first >= len)
		memcpy(w->ring + off, src, len);
	else {
		memcpy(w->ring + off, src, first);
		memcpy(w->ring, (const unsigned char *)src + first,
		    len - first);
	}
}

/*
 * Blocking mode: wait until len bytes fit after head, or the writer has
 * a sticky error (it then discards what is in the ring, so the wait
 * ends either way).  Returns 0 when they fit, -1 on the error.  The
 * timed wait only bounds the cost of a missed wake-up, which the
 * handshake in writer_wake_producer() rules out.
 */
static int
writer_wait_room(struct pcapint_writer *w, uint64_t head, size_t len)
{
	struct timespec deadline;
	int err;

	pthread_mutex_lock(&w->lock);
	__atomic_store_n(&w->waiting, 1, __ATOMIC_SEQ_CST);
	for (;;) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		w->tail_seen = __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
		err = __atomic_load_n(&w->error, __ATOMIC_ACQUIRE);
		if (err != 0 || len <= w->size - ring_used(head, w->tail_seen))
			break;
		/* A full ring is more than wake_bytes: the writer runs. */
		if (__atomic_load_n(&w->sleeping, __ATOMIC_RELAXED)) {
			__atomic_store_n(&w->sleeping, 0, __ATOMIC_RELAXED);
			pthread_cond_signal(&w->wake);
		}
		pcapint_writer_deadline(w->clock, &deadline, WRITER_IDLE_MS);
		(void)pthread_cond_timedwait(&w->room, &w->lock, &deadline);
	}
	__atomic_store_n(&w->waiting, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&w->lock);
	return (err != 0 ? -1 : 0);
}

int
pcapint_writer_put2(struct pcapint_writer *w, const void *a, size_t alen,
    const void *b, size_t blen)
{
	size_t len = alen + blen;
	uint64_t head = w->head;

	if (__atomic_load_n(&w->error, __ATOMIC_ACQUIRE) != 0) {
		w->dropped_error++;
		return (-1);
	}
	if (len > w->size - ring_used(head, w->tail_seen)) {
		/* Only now look at what the writer has freed. */
		w->tail_seen = __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
		/*
		 * The writer measures the fill when it consumes, which it
		 * does not while it waits in write(): that is when the
		 * ring fills up, so measure here too.
		 */
		if (ring_used(head, w->tail_seen) > w->high_water_seen)
			w->high_water_seen = ring_used(head, w->tail_seen);
		if (len > w->size - ring_used(head, w->tail_seen) &&
		    (!w->blocking || len > w->size ||
		    writer_wait_room(w, head, len) != 0)) {
			if (__atomic_load_n(&w->error, __ATOMIC_ACQUIRE) != 0)
				w->dropped_error++;
			else
				w->dropped_full++;
			return (-1);
		}
	}
	ring_copy(w, head, a, alen);
	if (blen != 0)
		ring_copy(w, head + alen, b, blen);
	__atomic_store_n(&w->head, head + len, __ATOMIC_RELEASE);
	w->records_in++;
	w->bytes_in += len;

	/*
	 * See the handshake in writer_main().  The flag is cleared here,
	 * under the mutex, so that one sleep gets one wake-up: left to
	 * the writer, it stays set until the writer has run again, and
	 * every record put meanwhile would take the mutex, which the
	 * waking writer wants too, and signal again.
	 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&w->sleeping, __ATOMIC_RELAXED))
		return (0);
	/*
	 * tail_seen is only brought up to date when the ring looks full,
	 * so it can be far behind: by it, wake_bytes would seem to wait
	 * long after the writer took them, and every record would wake
	 * the writer to find less than that and sleep again.  A sleeping
	 * writer does not move tail, so reading it now is cheap.  With
	 * these two changes, copying a 152 MB savefile through the writer
	 * takes a few thousand context switches instead of 100,000.
	 */
	w->tail_seen = __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
	if (ring_used(head + len, w->tail_seen) >= w->wake_bytes) {
		pthread_mutex_lock(&w->lock);
		if (__atomic_load_n(&w->sleeping, __ATOMIC_RELAXED)) {
			__atomic_store_n(&w->sleeping, 0, __ATOMIC_RELAXED);
			pthread_cond_signal(&w->wake);
		}
		pthread_mutex_unlock(&w->lock);
	}
	return (0);
}

int
pcapint_writer_put(struct pcapint_writer *w, const void *buf, size_t len)
{
	return (pcapint_writer_put2(w, buf, len, NULL, 0));
}
