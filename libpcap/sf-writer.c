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
 * A writer thread for savefiles.
 *
 * Why a thread at all: a write() to a file can block even when select()
 * or poll() says it won't -- the page cache fills up and the kernel makes
 * the writer wait for the disk -- and while the capturing thread waits in
 * write(), nobody reads the capture ring, which fills up, and the kernel
 * drops packets.  Satten's Gulp ("Lossless Gigabit Remote Packet Capture
 * With Linux", 2008) showed that decoupling the two, a reader thread that
 * only copies packets into a big buffer and a writer thread that empties
 * it, pinned to different CPUs, makes lossless capture to disk routine.
 * Compression makes the case stronger: it is CPU work that should not
 * happen on the thread that has to keep up with the link.
 *
 * The buffer is a single-producer/single-consumer byte ring.  The
 * producer (the thread calling pcap_dump()) owns "head", the consumer
 * (the writer thread) owns "tail"; each publishes its index with a
 * release store and reads the other's with an acquire load, so the
 * bytes a store makes visible are complete when the other side sees the
 * index move.  Gulp used plain volatile ints for this, which is a data
 * race in C11 terms; the __atomic builtins (GCC and clang, usable from
 * C99) say what is meant and keep ThreadSanitizer quiet.  The indices are
 * 64-bit byte counts that never wrap in practice; the ring position is
 * the count modulo the (power of two) ring size.
 *
 * The producer's side, putting records into the ring, is in
 * sf-writer-put.c; the ring's state, which both sides share, in
 * sf-writer-ring.h.
 *
 * The producer never blocks and, in steady state, makes no system call:
 * a record that does not fit is dropped and counted, never waited for --
 * waiting would stall the capture, which is the thing we are avoiding.
 * It takes the mutex only to wake a writer that went to sleep on an
 * empty ring, and only once enough bytes are waiting to be worth a
 * wake-up; a sleeping writer also wakes up by itself every
 * WRITER_IDLE_MS, so nothing waits long.  Flush and stop requests do
 * take the mutex and wait, as they must.
 *
 * Reading a savefile is the exception: there is no kernel ring to
 * overflow, the capture thread can wait, and a dropped record would be
 * a real loss in what is meant to be a copy.  In blocking mode
 * (params.blocking) a producer that finds the ring full waits on the
 * "room" condition until the writer frees some, with the same kind of
 * handshake as the writer's sleep, the other way round.
 *
 * Where the writer thread runs and how nicely (its CPU, its priority,
 * its name) is in sf-writer-sched.c.  The thread lowers its priority
 * before it runs anything else, and the start waits for the outcome, so
 * that a failure fails the open instead of leaving the thread at full
 * priority unnoticed.
 *
 * The writer thread blocks every signal, so that signals meant for the
 * application (SIGINT, SIGALRM, ...) are delivered to the application's
 * threads, and retries nothing itself: the consume() callback does the
 * writing and reports an errno value, which becomes sticky.
 */

#include <config.h>

#include "ftmacros.h"	/* _GNU_SOURCE, for CPU affinity */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pcap-int.h"
#include "sf-writer.h"
#include "sf-writer-sched.h"
#include "sf-writer-ring.h"
#include "sf-writer-clock.h"

/*
 * The producer wakes a sleeping writer only when this many bytes are
 * waiting (or the ring is a quarter full, if that is less): one wake-up,
 * a system call on the capture thread, per this many bytes rather than
 * per packet.
 */
#ifndef WRITER_WAKE_BYTES
#define	WRITER_WAKE_BYTES	(64 * 1024)
#endif

/*
 * The most the writer hands to consume() at once.  The space it takes
 * is given back to the producer only when consume() returns, which,
 * behind a slow disk, is when the writes in it are done: handing over
 * everything waiting (up to the whole ring) would keep the ring looking
 * full for as long, and records would be dropped with most of it
 * already written.  256 KiB chunks, a quarter of a compression block
 * by default, keep the ring usable to its last megabytes.
 */
#ifndef WRITER_CHUNK
#define	WRITER_CHUNK		(256 * 1024)
#endif

/*
 * A flush or stop gives the savefile up when the writer consumes nothing
 * for this long: its write() is blocked, into a pipe whose reader has
 * stopped reading or a disk that has stopped taking data, and waiting
 * on would hang the caller (tcpdump after ^C) for as long.  Behind a
 * slow disk that still takes data the writer consumes a chunk every few
 * milliseconds, and one that completes a block waits for its write(),
 * a fraction of a second for a block, so 10 seconds is no slow disk's
 * pace.  The savefile then has the sticky error ETIMEDOUT, its
 * waiting records are counted as lost, and the stop cancels the blocked
 * write().
 */
#ifndef WRITER_STALL_MS
#define	WRITER_STALL_MS		10000
#endif

/*
 * After freeing room: wake a blocking producer waiting for it.  The
 * release store of tail, the fence, then the load of "waiting" pair
 * with the producer's store of "waiting", fence, load of tail in
 * writer_wait_room() (sf-writer-put.c), as in the sleep handshake below; the producer
 * holds the mutex from that check until it waits, so taking it here
 * means the broadcast cannot come between the two.
 */
static void
writer_wake_producer(struct pcapint_writer *w)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&w->waiting, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&w->lock);
	pthread_cond_broadcast(&w->room);
	pthread_mutex_unlock(&w->lock);
}

/*
 * The writer thread: consume what is in the ring once there is enough
 * of it to be worth a wake-up (wake_bytes), or all of it when the idle
 * timeout expired or a flush or stop asks for it; carry out flush
 * requests once everything before them is consumed; sleep otherwise,
 * and leave only when asked to and the ring is empty.
 *
 * Waiting for wake_bytes rather than running at every record matters
 * when the writer is faster than the producer (a plain file, a fast
 * disk): woken for each record, it would go back to sleep at once, and
 * the two threads would spend their time handing the mutex back and
 * forth.
 */
static void *
writer_main(void *arg)
{
	struct pcapint_writer *w = arg;
	uint64_t head, tail, req;
	size_t off, chunk, used;
	int err, stop, drain;
	struct timespec deadline;

	pcapint_writer_set_name("pcap-writer");
	/*
	 * Cancelled only in write() (pcapint_writer_write_cancellable()),
	 * where it holds no lock, and only by a stop that gave up on it.
	 */
	(void)pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	err = pcapint_writer_lower_priority(w->nice_incr);
	pthread_mutex_lock(&w->lock);
	w->start_err = err;
	w->started = 1;
	pthread_cond_broadcast(&w->done);
	pthread_mutex_unlock(&w->lock);
	if (err != 0)
		return (NULL);

	drain = 0;
	for (;;) {
		tail = w->tail;
		head = __atomic_load_n(&w->head, __ATOMIC_ACQUIRE);
		used = ring_used(head, tail);
		if (used == 0)
			drain = 0;
		else if (drain || used >= w->wake_bytes) {
			if (used > w->high_water)
				__atomic_store_n(&w->high_water, used,
				    __ATOMIC_RELAXED);
			/* Up to the end of the ring; the rest next time. */
			off = (size_t)(tail & (w->size - 1));
			chunk = used;
			if (chunk > w->size - off)
				chunk = w->size - off;
			if (chunk > WRITER_CHUNK)
				chunk = WRITER_CHUNK;
			if (__atomic_load_n(&w->error, __ATOMIC_RELAXED) == 0) {
				err = w->ops->consume(w->ctx, w->ring + off,
				    chunk);
				if (err != 0)
					__atomic_store_n(&w->error, err,
					    __ATOMIC_RELEASE);
			}
			/*
			 * After an error the bytes are discarded, so that
			 * a flush or stop does not wait for ever; the
			 * producer counts what it hands over from now on.
			 */
			__atomic_store_n(&w->tail, tail + chunk,
			    __ATOMIC_RELEASE);
			if (w->blocking)
				writer_wake_producer(w);
			continue;
		}

		/* Little or nothing to do: requests, then sleep. */
		pthread_mutex_lock(&w->lock);
		req = w->flush_req;
		stop = w->stop;
		pthread_mutex_unlock(&w->lock);
		if (req != w->flush_seen || stop) {
			/*
			 * Everything handed over before the request first.
			 * Look at head again: the records put just before
			 * the request may have come after the load at the
			 * top of the loop, and a flush that returned
			 * without them would break its promise (a check
			 * of the records written after each flush once
			 * caught records missing that way).
			 */
			used = ring_used(__atomic_load_n(&w->head,
			    __ATOMIC_ACQUIRE), w->tail);
			if (used != 0) {
				drain = 1;
				continue;
			}
			if (req == w->flush_seen)
				break;
			if (__atomic_load_n(&w->error, __ATOMIC_RELAXED) == 0 &&
			    w->ops->flush != NULL) {
				err = w->ops->flush(w->ctx);
				if (err != 0)
					__atomic_store_n(&w->error, err,
					    __ATOMIC_RELEASE);
			}
			w->flush_seen = req;
			pthread_mutex_lock(&w->lock);
			w->flush_done = req;
			pthread_cond_broadcast(&w->done);
			pthread_mutex_unlock(&w->lock);
			continue;
		}

		pthread_mutex_lock(&w->lock);
		__atomic_store_n(&w->sleeping, 1, __ATOMIC_SEQ_CST);
		/*
		 * Dekker-style handshake with pcapint_writer_put(): we
		 * store "sleeping" then load "head", it stores "head" then
		 * loads "sleeping", each with a full fence in between, so
		 * at least one of us sees the other's store -- either we
		 * see wake_bytes waiting and do not sleep, or it sees us
		 * asleep and signals (under the mutex, which we hold until
		 * the wait releases it, so the signal cannot come too
		 * early).  Less than wake_bytes waits for the timeout.
		 */
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (ring_used(__atomic_load_n(&w->head, __ATOMIC_ACQUIRE),
		    w->tail) < w->wake_bytes &&
		    w->flush_req == w->flush_seen && !w->stop) {
			pcapint_writer_deadline(w->clock, &deadline,
			    WRITER_IDLE_MS);
			if (pthread_cond_timedwait(&w->wake, &w->lock,
			    &deadline) == ETIMEDOUT)
				drain = 1;
		}
		__atomic_store_n(&w->sleeping, 0, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&w->lock);
	}
	return (NULL);
}

struct pcapint_writer *
pcapint_writer_start(const struct pcapint_writer_params *params,
    const struct pcapint_writer_ops *ops, void *ctx, char *errbuf)
{
	struct pcapint_writer *w;
	pthread_cond_t *conds[3];
	pthread_attr_t attr;
	sigset_t all, old;
	size_t size, ring_size = params->ring_size;
	int err, cpu = params->cpu;
#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
	cpu_set_t cpus;
#endif

	if (pcapint_writer_check_nice(params->nice_incr, errbuf) != 0)
		return (NULL);
	if (ring_size < 4096 || ring_size > ((size_t)1 << 40)) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "writer ring size %zu is out of range (4 KiB to 1 TiB)",
		    ring_size);
		return (NULL);
	}
	for (size = 4096; size < ring_size; size <<= 1)
		continue;

	w = calloc(1, sizeof(*w));
	if (w == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, errno,
		    "malloc");
		return (NULL);
	}
	w->ring = malloc(size);
	if (w->ring == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, errno,
		    "cannot allocate a writer ring of %zu bytes", size);
		free(w);
		return (NULL);
	}
	w->size = size;
	w->wake_bytes = size / 4 < WRITER_WAKE_BYTES ?
	    size / 4 : WRITER_WAKE_BYTES;
	w->ops = ops;
	w->ctx = ctx;
	w->nice_incr = params->nice_incr;
	w->blocking = params->blocking;
	pthread_mutex_init(&w->lock, NULL);
	conds[0] = &w->wake;
	conds[1] = &w->done;
	conds[2] = &w->room;
	w->clock = pcapint_writer_conds_init(conds, 3);

	pthread_attr_init(&attr);
	if (cpu >= 0) {
#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
		if (pcapint_writer_check_cpu(cpu, errbuf) != 0)
			goto fail;
		CPU_ZERO(&cpus);
		CPU_SET(cpu, &cpus);
		err = pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
		if (err != 0) {
			pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
			    err, "cannot pin the writer thread to CPU %d", cpu);
			goto fail;
		}
#else
		(void)pcapint_writer_check_cpu(cpu, errbuf);
		goto fail;
#endif
	}

	/* The thread starts with every signal blocked, and keeps it so. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&w->thread, &attr, writer_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, err,
		    "cannot start the writer thread");
		goto fail;
	}
	pthread_attr_destroy(&attr);

	/* Wait for the thread to set itself up; see writer_main(). */
	pthread_mutex_lock(&w->lock);
	while (!w->started)
		pthread_cond_wait(&w->done, &w->lock);
	err = w->start_err;
	pthread_mutex_unlock(&w->lock);
	if (err != 0) {
		pthread_join(w->thread, NULL);
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, err,
		    "cannot lower the writer thread's priority by %d",
		    params->nice_incr);
		goto fail_thread;
	}
	return (w);

fail:
	pthread_attr_destroy(&attr);
fail_thread:
	pthread_cond_destroy(&w->room);
	pthread_cond_destroy(&w->done);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w->ring);
	free(w);
	return (NULL);
}

/*
 * Wait, with the mutex held, until the flush request req is carried out,
 * or until the writer has consumed nothing for WRITER_STALL_MS; then the
 * writer is stalled, and the savefile has the sticky error ETIMEDOUT.
 */
static void
writer_wait_flushed(struct pcapint_writer *w, uint64_t req)
{
	struct timespec deadline;
	uint64_t tail, last_tail;
	int still_ms, zero;

	last_tail = __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
	still_ms = 0;
	while (w->flush_done < req && !w->stalled) {
		pcapint_writer_deadline(w->clock, &deadline, 100);
		if (pthread_cond_timedwait(&w->done, &w->lock,
		    &deadline) != ETIMEDOUT)
			continue;
		tail = __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
		if (tail != last_tail) {
			last_tail = tail;
			still_ms = 0;
		} else if ((still_ms += 100) >= WRITER_STALL_MS) {
			w->stalled = 1;
			zero = 0;
			(void)__atomic_compare_exchange_n(&w->error, &zero,
			    ETIMEDOUT, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
		}
	}
}

int
pcapint_writer_flush(struct pcapint_writer *w)
{
	uint64_t req;

	pthread_mutex_lock(&w->lock);
	req = ++w->flush_req;
	pthread_cond_signal(&w->wake);
	writer_wait_flushed(w, req);
	pthread_mutex_unlock(&w->lock);
	return (__atomic_load_n(&w->error, __ATOMIC_ACQUIRE));
}

ssize_t
pcapint_writer_write_cancellable(int fd, const void *buf, size_t len)
{
	ssize_t n;
	int old;

	(void)pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
	n = write(fd, buf, len);
	(void)pthread_setcancelstate(old, NULL);
	return (n);
}

void
pcapint_writer_get_stats(struct pcapint_writer *w,
    struct pcapint_writer_stats *st)
{
	st->bytes_in = w->bytes_in;
	st->records_in = w->records_in;
	st->dropped_full = w->dropped_full;
	st->dropped_error = w->dropped_error;
	st->high_water = __atomic_load_n(&w->high_water, __ATOMIC_RELAXED);
	if (w->high_water_seen > st->high_water)
		st->high_water = w->high_water_seen;
	st->ring_size = w->size;
	st->error = __atomic_load_n(&w->error, __ATOMIC_ACQUIRE);
}

size_t
pcapint_writer_backlog(struct pcapint_writer *w)
{
	return (ring_used(__atomic_load_n(&w->head, __ATOMIC_ACQUIRE),
	    w->tail));
}

size_t
pcapint_writer_ring_size(struct pcapint_writer *w)
{
	return (w->size);
}

int
pcapint_writer_stop(struct pcapint_writer *w)
{
	int err;

	/*
	 * Everything handed over is consumed and flushed before we stop,
	 * unless the writer is stalled: then its write() is cancelled.
	 */
	(void)pcapint_writer_flush(w);
	pthread_mutex_lock(&w->lock);
	w->stop = 1;
	pthread_cond_signal(&w->wake);
	if (w->stalled)
		(void)pthread_cancel(w->thread);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);

	err = __atomic_load_n(&w->error, __ATOMIC_ACQUIRE);
	pthread_cond_destroy(&w->room);
	pthread_cond_destroy(&w->done);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w->ring);
	free(w);
	return (err);
}
