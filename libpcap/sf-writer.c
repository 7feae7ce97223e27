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
 * A writer thread for savefiles, after Satten's Gulp: write() can block as
 * long as the disk takes, even after poll(), and a capture blocked there
 * overflows the kernel's ring; so pcap_dump() only copies each record into
 * a ring, for a thread of its own to compress and write.  The producer owns
 * "head", the writer "tail": 64-bit byte counts modulo the ring's size, each
 * release-stored by its owner after the bytes, acquire-loaded by the other.
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
#include <unistd.h>

#include "pcap-int.h"
#include "sf-compress.h"

void
pcapint_writer_set_name(const char *name _U_)
{
#if defined(HAVE_PTHREAD_SETNAME_NP) && defined(__linux__)
	/* For top -H and ps -L; Linux's takes two arguments. */
	(void)pthread_setname_np(pthread_self(), name);
#endif
}

#if defined(HAVE_PTHREAD_ATTR_SETAFFINITY_NP) || defined(SFC_COOKIE_OFF_T)
/* Pinned unless cpu is -1; signals blocked: they are the application's. */
static int
writer_spawn(pthread_t *t, int cpu, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int err = 0;

	pthread_attr_init(&attr);
	if (cpu >= 0) {
#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
		cpu_set_t cpus;

		CPU_ZERO(&cpus);
		CPU_SET(cpu, &cpus);
		err = pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
#endif
	}
	if (err == 0) {
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		err = pthread_create(t, &attr, fn, arg);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	pthread_attr_destroy(&attr);
	return (err);
}
#endif

#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
static void *
writer_probe_main(void *arg _U_)
{
	return (NULL);
}
#endif

int
pcapint_writer_check_cpu(int cpu, char *errbuf)
{
#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
	pthread_t t;
	int err;

	/* A pinned thread: the kernel, not this thread's mask, judges cpu. */
	if (cpu < 0 || cpu >= CPU_SETSIZE)
		err = EINVAL;
	else if ((err = writer_spawn(&t, cpu, writer_probe_main, NULL)) == 0)
		pthread_join(t, NULL);
	if (err == EINVAL)
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "cannot pin the writer thread to CPU %d: no such CPU is available to this process",
		    cpu);
	else if (err != 0)
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, err,
		    "cannot pin the writer thread to CPU %d", cpu);
	return (err != 0 ? -1 : 0);
#else
	snprintf(errbuf, PCAP_ERRBUF_SIZE,
	    "cannot pin the writer thread to CPU %d: not supported on this platform",
	    cpu);
	return (-1);
#endif
}

/* The rest needs a dumper to feed it (see sf-compress.h). */
#ifdef SFC_COOKIE_OFF_T
#define	WRITER_IDLE_MS		50	/* see writer_main() */
#define	WRITER_WAKE_BYTES	(64 * 1024)	/* see writer_main() */
#define	WRITER_CHUNK		(256 * 1024)	/* see writer_consume() */
#define	WRITER_HOT_BYTES	(1024 * 1024)	/* see writer_rewind() */
#define	WRITER_STALL_MS		10000	/* see pcapint_writer_flush() */
#define	CACHE_LINE		64	/* keeps the sides' indices apart */
#define	RING_USED(head, tail)	((size_t)((head) - (tail)))

struct pcapint_writer {
	unsigned char	*ring;
	size_t		size, wake_bytes;	/* powers of two */
	size_t		hot_bytes;	/* the producer rewinds past this */
	const struct pcapint_writer_ops *ops;
	void		*ctx;
	char		pad0[CACHE_LINE];	/* the producer's side */
	uint64_t	head;		/* bytes ever put; release-stored */
	uint64_t	tail_seen;	/* producer's last view of tail */
	uint64_t	records_in, bytes_in, rewinds;
	uint64_t	dropped_full, dropped_error;
	size_t		high_water_seen; /* the producer's measure of it */
	char		pad1[CACHE_LINE];	/* the writer's side */
	uint64_t	tail;		/* bytes ever consumed; release-stored */
	size_t		high_water;
	int		error, sleeping;	/* sticky errno; writer waits */
	int		nice_incr, blocking, waiting;	/* waiting: on "room" */
	char		pad2[CACHE_LINE];	/* the rest under the mutex */
	pthread_mutex_t	lock;
	pthread_cond_t	wake, done, room;	/* writer; flush, stop; put */
	clockid_t	clock;		/* the clock of their deadlines */
	int		started, start_err;	/* set up; errno or 0 */
	uint64_t	flush_req, flush_done;	/* done: the writer's */
	int		stop, stalled;	/* stalled: a flush gave up waiting */
	pthread_t	thread;
};

/* With the mutex held: pthread_cond_timedwait() for ms at most. */
static int
writer_wait(struct pcapint_writer *w, pthread_cond_t *cond, long ms)
{
	struct timespec deadline;

	clock_gettime(w->clock, &deadline);
	deadline.tv_nsec += (ms % 1000) * 1000000L;
	deadline.tv_sec += ms / 1000 + deadline.tv_nsec / 1000000000L;
	deadline.tv_nsec %= 1000000000L;
	return (pthread_cond_timedwait(cond, &w->lock, &deadline));
}

static void
ring_copy(struct pcapint_writer *w, uint64_t pos, const void *src, size_t len)
{
	size_t off = (size_t)(pos & (w->size - 1));
	size_t first = w->size - off < len ? w->size - off : len;

	memcpy(w->ring + off, src, first);
	if (first < len)
		memcpy(w->ring, (const unsigned char *)src + first,
		    len - first);
}

/* With the mutex held; one sleep gets one wake-up, not one per record. */
static void
writer_wake(struct pcapint_writer *w)
{
	if (__atomic_load_n(&w->sleeping, __ATOMIC_RELAXED)) {
		__atomic_store_n(&w->sleeping, 0, __ATOMIC_RELAXED);
		pthread_cond_signal(&w->wake);
	}
}

/*
 * Blocking mode: 0 once len bytes fit after head, -1 on the sticky error.
 * Dekker-style on "waiting" and tail with writer_consume(); the mutex is
 * held from check to wait, so its broadcast cannot fall between them.
 */
static int
writer_wait_room(struct pcapint_writer *w, uint64_t head, size_t len)
{
	int err;

	pthread_mutex_lock(&w->lock);
	__atomic_store_n(&w->waiting, 1, __ATOMIC_SEQ_CST);
	for (;;) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		w->tail_seen = __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
		err = __atomic_load_n(&w->error, __ATOMIC_ACQUIRE);
		if (err != 0 || len <= w->size - RING_USED(head, w->tail_seen))
			break;
		/* A full ring is more than wake_bytes: the writer runs. */
		writer_wake(w);
		(void)writer_wait(w, &w->room, WRITER_IDLE_MS);
	}
	__atomic_store_n(&w->waiting, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&w->lock);
	return (err != 0 ? -1 : 0);
}

/*
 * While the writer keeps up, keep the producer to the first, cached hot_bytes
 * (the rest may not be mapped): a sleeping writer's backlog moves, uncounted,
 * to the next lap's start; it wakes only with this mutex, then rereads tail.
 */
static uint64_t
writer_rewind(struct pcapint_writer *w, uint64_t head)
{
	uint64_t tail, start;
	size_t waiting;

	pthread_mutex_lock(&w->lock);
	tail = __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
	waiting = RING_USED(head, tail);
	if (__atomic_load_n(&w->sleeping, __ATOMIC_RELAXED) &&
	    waiting < w->wake_bytes) {
		start = (head | (uint64_t)(w->size - 1)) + 1;
		memmove(w->ring, w->ring + (tail & (w->size - 1)), waiting);
		__atomic_store_n(&w->tail, start, __ATOMIC_RELEASE);
		head = start + waiting;
		__atomic_store_n(&w->head, head, __ATOMIC_RELEASE);
		w->tail_seen = start;
		w->rewinds++;
	}
	pthread_mutex_unlock(&w->lock);
	return (head);
}

/* len bytes are in at head: publish them; now and then wake the writer. */
static int
writer_publish(struct pcapint_writer *w, uint64_t head, size_t len)
{
	__atomic_store_n(&w->head, head + len, __ATOMIC_RELEASE);
	w->records_in++;
	/* Others read it through pcapint_writer_get_stats(). */
	__atomic_store_n(&w->bytes_in, w->bytes_in + len, __ATOMIC_RELAXED);
	/* Dekker-style with writer_main(), once per wake_bytes / 16 bytes. */
	if (((head ^ (head + len)) & ~(uint64_t)(w->wake_bytes / 16 - 1)) == 0)
		return (0);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&w->sleeping, __ATOMIC_RELAXED))
		return (0);
	w->tail_seen = __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
	if (RING_USED(head + len, w->tail_seen) >= w->wake_bytes) {
		pthread_mutex_lock(&w->lock);
		writer_wake(w);
		pthread_mutex_unlock(&w->lock);
	}
	return (0);
}

int
pcapint_writer_put(struct pcapint_writer *w, const void *a, size_t alen,
    const void *b, size_t blen)
{
	size_t len = alen + blen;
	uint64_t head = w->head;

	if (__atomic_load_n(&w->error, __ATOMIC_ACQUIRE) != 0)
		goto drop;
	if ((size_t)(head & (w->size - 1)) >= w->hot_bytes &&
	    __atomic_load_n(&w->sleeping, __ATOMIC_RELAXED))
		head = writer_rewind(w, head);
	if (len > w->size - RING_USED(head, w->tail_seen)) {
		w->tail_seen = __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
		if (RING_USED(head, w->tail_seen) > w->high_water_seen)
			w->high_water_seen = RING_USED(head, w->tail_seen);
		if (len > w->size - RING_USED(head, w->tail_seen) &&
		    (!w->blocking || len > w->size ||
		    writer_wait_room(w, head, len) != 0))
			goto drop;
	}
	ring_copy(w, head, a, alen);
	if (blen != 0)
		ring_copy(w, head + alen, b, blen);
	return (writer_publish(w, head, len));
drop:
	if (__atomic_load_n(&w->error, __ATOMIC_ACQUIRE) != 0)
		w->dropped_error++;
	else
		w->dropped_full++;
	return (-1);
}

/* The usual record: in the hot part, with room the producer knows of. */
int
pcapint_writer_put_record(struct pcapint_writer *w, const void *hdr,
    const void *data, size_t caplen)
{
	uint64_t head = w->head;
	size_t off = (size_t)(head & (w->size - 1));
	size_t len = PCAP_REC_HDR_LEN + caplen;

	if (off + len > w->hot_bytes ||
	    len > w->size - RING_USED(head, w->tail_seen) ||
	    __atomic_load_n(&w->error, __ATOMIC_ACQUIRE) != 0)
		return (pcapint_writer_put(w, hdr, PCAP_REC_HDR_LEN, data,
		    caplen));
	memcpy(w->ring + off, hdr, PCAP_REC_HDR_LEN);
	memcpy(w->ring + off + PCAP_REC_HDR_LEN, data, caplen);
	return (writer_publish(w, head, len));
}

/*
 * Up to the ring's end and WRITER_CHUNK: the room returns to the producer
 * only when consume() does.  After an error what waits is discarded, so
 * that flushes end.
 */
static void
writer_consume(struct pcapint_writer *w, size_t used)
{
	uint64_t tail = w->tail;
	size_t off = (size_t)(tail & (w->size - 1));
	size_t chunk = used < w->size - off ? used : w->size - off;
	int err;

	if (used > w->high_water)
		__atomic_store_n(&w->high_water, used, __ATOMIC_RELAXED);
	if (chunk > WRITER_CHUNK)
		chunk = WRITER_CHUNK;
	if (__atomic_load_n(&w->error, __ATOMIC_RELAXED) == 0 &&
	    (err = w->ops->consume(w->ctx, w->ring + off, chunk)) != 0)
		__atomic_store_n(&w->error, err, __ATOMIC_RELEASE);
	__atomic_store_n(&w->tail, tail + chunk, __ATOMIC_RELEASE);
	if (!w->blocking)
		return;
	/* Wake a blocking producer; see writer_wait_room(). */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&w->waiting, __ATOMIC_RELAXED)) {
		pthread_mutex_lock(&w->lock);
		pthread_cond_broadcast(&w->room);
		pthread_mutex_unlock(&w->lock);
	}
}

/*
 * Lower the priority first, so that a failure fails the open; then consume
 * once wake_bytes wait (per record, the mutex would only change hands), all
 * after WRITER_IDLE_MS (a quiet link's records), or for a flush or stop.
 */
static void *
writer_main(void *arg)
{
	struct pcapint_writer *w = arg;
	uint64_t req;
	size_t used;
	int err = 0, drain = 0;

	pcapint_writer_set_name("pcap-writer");
	/* Cancelled only in write(), holding no lock, by a stop. */
	(void)pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
#ifdef __linux__
	/* Linux keeps a nice value per thread (sched(7)), at most 19. */
	errno = 0;
	if (w->nice_incr != 0 && nice(w->nice_incr) == -1 && errno != 0)
		err = errno;
#endif
	pthread_mutex_lock(&w->lock);
	w->start_err = err;
	w->started = 1;
	pthread_cond_broadcast(&w->done);
	pthread_mutex_unlock(&w->lock);
	if (err != 0)
		return (NULL);
	for (;;) {
		used = pcapint_writer_backlog(w);
		if (used == 0)
			drain = 0;
		else if (drain || used >= w->wake_bytes) {
			writer_consume(w, used);
			continue;
		}
		/* Little or nothing to do: requests, or else sleep. */
		pthread_mutex_lock(&w->lock);
		req = w->flush_req;
		if (req == w->flush_done && !w->stop) {
			__atomic_store_n(&w->sleeping, 1, __ATOMIC_SEQ_CST);
			/*
			 * Dekker-style with put(): each stores its flag,
			 * fences, loads the other's; we see wake_bytes, or
			 * the next put() past a multiple of wake_bytes / 16
			 * sees us asleep and signals, or the wait times out.
			 */
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			if (pcapint_writer_backlog(w) < w->wake_bytes &&
			    writer_wait(w, &w->wake, WRITER_IDLE_MS) ==
			    ETIMEDOUT)
				drain = 1;
			__atomic_store_n(&w->sleeping, 0, __ATOMIC_RELAXED);
			pthread_mutex_unlock(&w->lock);
			continue;
		}
		pthread_mutex_unlock(&w->lock);
		/* First all put before the request (some since the load). */
		if (pcapint_writer_backlog(w) != 0) {
			drain = 1;
			continue;
		}
		if (req == w->flush_done)
			break;
		if (__atomic_load_n(&w->error, __ATOMIC_RELAXED) == 0 &&
		    (err = w->ops->flush(w->ctx)) != 0)
			__atomic_store_n(&w->error, err, __ATOMIC_RELEASE);
		pthread_mutex_lock(&w->lock);
		w->flush_done = req;
		pthread_cond_broadcast(&w->done);
		pthread_mutex_unlock(&w->lock);
	}
	return (NULL);
}

ptrdiff_t
pcapint_writer_write_cancellable(int fd, const void *buf, size_t len)
{
	ssize_t n;
	int old;

	(void)pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
	n = write(fd, buf, len);
	(void)pthread_setcancelstate(old, NULL);
	return (n);
}

uint64_t
pcapint_writer_bytes_in(struct pcapint_writer *w)
{
	return (w->bytes_in);
}

size_t
pcapint_writer_backlog(struct pcapint_writer *w)
{
	return (RING_USED(__atomic_load_n(&w->head, __ATOMIC_ACQUIRE),
	    __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE)));
}

size_t
pcapint_writer_ring_size(struct pcapint_writer *w)
{
	return (w->size);
}

static void
writer_free(struct pcapint_writer *w)
{
	pthread_cond_destroy(&w->room);
	pthread_cond_destroy(&w->done);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w->ring);
	free(w);
}

struct pcapint_writer *
pcapint_writer_start(const struct pcapint_writer_params *params,
    const struct pcapint_writer_ops *ops, void *ctx, char *errbuf)
{
	struct pcapint_writer *w;
	pthread_condattr_t attr;
	size_t size, ring_size = params->ring_size;
	int err;

	for (size = 4096; size < ring_size; size <<= 1)
		continue;
	if ((w = calloc(1, sizeof(*w))) == NULL ||
	    (w->ring = malloc(size)) == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, errno,
		    "cannot allocate a writer ring of %zu bytes", size);
		free(w);
		return (NULL);
	}
	w->size = size;
	w->wake_bytes = size / 4 < WRITER_WAKE_BYTES ?
	    size / 4 : WRITER_WAKE_BYTES;
	w->hot_bytes = size / 4 < WRITER_HOT_BYTES ? size : WRITER_HOT_BYTES;
	w->ops = ops;
	w->ctx = ctx;
	w->nice_incr = params->nice_incr;
	w->blocking = params->blocking;
	pthread_mutex_init(&w->lock, NULL);
	/* Monotonic if possible: setting the clock back stretches no wait. */
	w->clock = CLOCK_REALTIME;
	pthread_condattr_init(&attr);
#if defined(HAVE_PTHREAD_CONDATTR_SETCLOCK) && defined(CLOCK_MONOTONIC)
	if (pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0)
		w->clock = CLOCK_MONOTONIC;
#endif
	pthread_cond_init(&w->wake, &attr);
	pthread_cond_init(&w->done, &attr);
	pthread_cond_init(&w->room, &attr);
	pthread_condattr_destroy(&attr);
	if (params->cpu >= 0 &&
	    pcapint_writer_check_cpu(params->cpu, errbuf) != 0)
		goto fail;
	err = writer_spawn(&w->thread, params->cpu, writer_main, w);
	if (err != 0) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, err,
		    "cannot start the writer thread");
		goto fail;
	}
	pthread_mutex_lock(&w->lock);
	while (!w->started)
		pthread_cond_wait(&w->done, &w->lock);
	err = w->start_err;
	pthread_mutex_unlock(&w->lock);
	if (err == 0)
		return (w);
	pthread_join(w->thread, NULL);
	pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, err,
	    "cannot lower the writer thread's priority by %d",
	    params->nice_incr);
fail:
	writer_free(w);
	return (NULL);
}

/* No progress for WRITER_STALL_MS: a stopped pipe or disk, not a slow one. */
int
pcapint_writer_flush(struct pcapint_writer *w)
{
	uint64_t req, tail, last_tail;
	int still_ms = 0, zero = 0;

	pthread_mutex_lock(&w->lock);
	req = ++w->flush_req;
	pthread_cond_signal(&w->wake);
	last_tail = __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
	while (w->flush_done < req && !w->stalled) {
		if (writer_wait(w, &w->done, 100) != ETIMEDOUT)
			continue;
		tail = __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
		still_ms = tail == last_tail ? still_ms + 100 : 0;
		last_tail = tail;
		if (still_ms >= WRITER_STALL_MS) {
			w->stalled = 1;
			(void)__atomic_compare_exchange_n(&w->error, &zero,
			    ETIMEDOUT, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
		}
	}
	pthread_mutex_unlock(&w->lock);
	return (__atomic_load_n(&w->error, __ATOMIC_ACQUIRE));
}

void
pcapint_writer_get_stats(struct pcapint_writer *w,
    struct pcapint_writer_stats *st)
{
	/* What waits now counts: a writer stuck in write() measures nothing. */
	size_t used = pcapint_writer_backlog(w);

	st->bytes_in = __atomic_load_n(&w->bytes_in, __ATOMIC_RELAXED);
	st->records_in = w->records_in;
	st->dropped_full = w->dropped_full;
	st->dropped_error = w->dropped_error;
	st->high_water = __atomic_load_n(&w->high_water, __ATOMIC_RELAXED);
	if (w->high_water_seen > st->high_water)
		st->high_water = w->high_water_seen;
	if (used > st->high_water)
		st->high_water = used;
	st->ring_size = w->size;
	st->error = __atomic_load_n(&w->error, __ATOMIC_ACQUIRE);
}

int
pcapint_writer_stop(struct pcapint_writer *w)
{
	int err;

	(void)pcapint_writer_flush(w);
	pthread_mutex_lock(&w->lock);
	w->stop = 1;
	pthread_cond_signal(&w->wake);
	if (w->stalled)
		(void)pthread_cancel(w->thread);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	err = __atomic_load_n(&w->error, __ATOMIC_ACQUIRE);
	writer_free(w);
	return (err);
}
#endif /* SFC_COOKIE_OFF_T */
