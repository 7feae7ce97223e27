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
 * The producer never blocks and, in steady state, makes no system call:
 * a record that does not fit is dropped and counted, never waited for --
 * waiting would stall the capture, which is the thing we are avoiding.
 * It takes the mutex only to wake a writer that went to sleep on an
 * empty ring, and only once enough bytes are waiting to be worth a
 * wake-up; a sleeping writer also wakes up by itself every
 * WRITER_IDLE_MS, so nothing waits long.  Flush and stop requests do
 * take the mutex and wait, as they must.
 *
 * While the writer keeps up, the producer writes into the first
 * WRITER_HOT_BYTES of the ring again and again (writer_rewind()): a
 * record copied into memory that was touched a moment ago costs a
 * fraction of one copied into memory that is not in the cache, or not
 * even mapped yet, which is what walking through the whole ring on
 * every lap would give.  The rest of the ring is touched only when a
 * backlog needs it.
 *
 * Reading a savefile is the exception: there is no kernel ring to
 * overflow, the capture thread can wait, and a dropped record would be
 * a real loss in what is meant to be a copy.  In blocking mode
 * (params.blocking) a producer that finds the ring full waits on the
 * "room" condition until the writer frees some, with the same kind of
 * handshake as the writer's sleep, the other way round.
 *
 * The thread lowers its priority before it runs anything else, and the
 * start waits for the outcome, so that a failure fails the open instead
 * of leaving the thread at full priority unnoticed.
 *
 * The writer thread blocks every signal, so that signals meant for the
 * application (SIGINT, SIGALRM, ...) are delivered to the application's
 * threads, and retries nothing itself: the consume() callback does the
 * writing and reports an errno value, which becomes sticky.
 *
 * The file's sections: where the writer thread runs and how nicely (its
 * CPU, its priority, its name); then the ring's state, which both sides
 * share; the clock of the timed waits; the producer's side, putting
 * records into the ring; the writer thread; and starting, flushing and
 * stopping it.  The file is built with pthreads; all but the first
 * section need a dumper as well, without which sf-compress-write.c
 * stands in for pcapint_writer_write_cancellable().  The ring knows
 * nothing of savefiles: the dumper (sf-compress-write.c) gives it the
 * callbacks that compress and write, and closes dumpers in the
 * background itself.
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
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#endif

#include "pcap-int.h"
#include "sf-compress.h"

/*
 * Where the writer thread runs and how nicely: pinned to a CPU, at a
 * lower priority, under a name of its own.
 *
 * The writer thread can lower its own priority, so that when it shares
 * a CPU with the capture thread the scheduler favours the capture: the
 * capture has a kernel ring that overflows, the writer only a deeper
 * backlog in our ring.  On Linux the nice value is per thread, set with
 * setpriority() on the thread's id, and inherited by the threads it
 * creates; elsewhere it is the process's, and refused.
 *
 * The writer thread names itself "pcap-writer" where threads can be
 * named (on Linux, for top -H, ps -L and /proc/PID/task/TID/comm), so
 * that a user can tell it and the dumper's compression helpers
 * ("pcap-compress") from the capturing thread.
 *
 * The writer options (sf-compress-write.c) check the CPU and the
 * priority when they are set, so this section is built whenever
 * pthreads are, dumper or not.
 */

void
pcapint_writer_set_name(const char *name)
{
#if defined(HAVE_PTHREAD_SETNAME_NP) && defined(__linux__)
	/* Linux's is the two-argument one; at most 15 characters. */
	(void)pthread_setname_np(pthread_self(), name);
#else
	(void)name;
#endif
}

#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
static void *
writer_probe_main(void *arg _U_)
{
	return (NULL);
}

/*
 * Start a thread pinned to cpu, and let it end: the kernel is the judge
 * of which CPUs a thread of this process may run on.  The calling
 * thread's own mask is not: a capture started with "taskset -c 1" may
 * ask for its writer on CPU 0, which the process's cpuset allows.
 * Returns 0 or an errno value.
 */
static int
writer_probe_cpu(int cpu)
{
	pthread_attr_t attr;
	pthread_t t;
	cpu_set_t cpus;
	sigset_t all, old;
	int err;

	pthread_attr_init(&attr);
	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	err = pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
	if (err == 0) {
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		err = pthread_create(&t, &attr, writer_probe_main, NULL);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (err == 0)
			pthread_join(t, NULL);
	}
	pthread_attr_destroy(&attr);
	return (err);
}
#endif

int
pcapint_writer_check_cpu(int cpu, char *errbuf)
{
#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
	int err;

	/*
	 * Say which CPU is wrong, and say it when the option is set:
	 * otherwise the error would only come when the first file is
	 * opened.  EINVAL is the kernel's answer for a CPU that does not
	 * exist or that the process's cpuset leaves out.
	 */
	if (cpu < 0 || cpu >= CPU_SETSIZE)
		err = EINVAL;
	else
		err = writer_probe_cpu(cpu);
	if (err == EINVAL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "cannot pin the writer thread to CPU %d: no such CPU is available to this process",
		    cpu);
		return (-1);
	}
	if (err != 0) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, err,
		    "cannot pin the writer thread to CPU %d", cpu);
		return (-1);
	}
	return (0);
#else
	snprintf(errbuf, PCAP_ERRBUF_SIZE,
	    "cannot pin the writer thread to CPU %d: not supported on this platform",
	    cpu);
	return (-1);
#endif
}

int
pcapint_writer_check_nice(int nice_incr, char *errbuf)
{
	/*
	 * Only ever lower: raising the writer above the capture thread
	 * is the opposite of the point, and needs privileges besides.
	 */
	if (nice_incr < 0 || nice_incr > 19) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "writer thread priority decrease %d is out of range (0 to 19)",
		    nice_incr);
		return (-1);
	}
#ifndef __linux__
	if (nice_incr != 0) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "cannot lower the writer thread's priority: not supported on this platform");
		return (-1);
	}
#endif
	return (0);
}

/*
 * The rest is the writer thread itself, which exists only for a dumper
 * to feed it: SFC_COOKIE_OFF_T says that configure found the
 * fopencookie() or funopen() a dumper needs, and HAVE_PTHREADS, under
 * which this file is built, that it found the __atomic builtins as
 * well.
 */
#ifdef SFC_COOKIE_OFF_T

/*
 * How long an idle writer sleeps before it looks at the ring again by
 * itself.  It bounds how long a few packets can wait in the ring when
 * the producer chose not to wake the writer for them.
 */
#ifndef WRITER_IDLE_MS
#define	WRITER_IDLE_MS		50
#endif

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
 * The part of the ring the producer keeps to while the writer keeps up
 * (writer_rewind()); a ring of less than four times this is used whole.
 */
#ifndef WRITER_HOT_BYTES
#define	WRITER_HOT_BYTES	(1024 * 1024)
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
 * The ring and the state that its two sides share, the producer and the
 * writer thread.
 */

/* Keep the two sides' indices on cache lines of their own. */
#define	CACHE_LINE		64

struct pcapint_writer {
	unsigned char	*ring;
	size_t		size;		/* a power of two */
	size_t		wake_bytes;
	size_t		hot_bytes;	/* 0: no rewinding */
	const struct pcapint_writer_ops *ops;
	void		*ctx;

	/* Producer's side. */
	char		pad0[CACHE_LINE];
	uint64_t	head;		/* bytes ever put; release-stored */
	uint64_t	tail_seen;	/* producer's last view of tail */
	uint64_t	records_in;
	uint64_t	bytes_in;
	uint64_t	rewinds;
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

/*
 * The clock of the writer thread's timed waits.
 *
 * pthread_cond_timedwait() takes an absolute deadline, on
 * CLOCK_REALTIME unless the condition variable was made for another
 * clock.  When the system time is stepped back, a wait on
 * CLOCK_REALTIME lasts for the step as well: an idle writer would
 * leave records in its ring that long, and a flush would notice a
 * stalled writer only that much later.  Where
 * pthread_condattr_setclock() exists, the waits use CLOCK_MONOTONIC,
 * which is never stepped.
 */

#if defined(HAVE_PTHREAD_CONDATTR_SETCLOCK) && defined(CLOCK_MONOTONIC)
/*
 * All of conds[] on CLOCK_MONOTONIC, or none: 0 if so; -1 leaves them
 * uninitialized.
 */
static int
conds_init_monotonic(pthread_cond_t *const conds[], size_t n)
{
	pthread_condattr_t attr;
	size_t i;
	int ok;

	if (pthread_condattr_init(&attr) != 0)
		return (-1);
	ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0;
	for (i = 0; ok && i < n; i++) {
		if (pthread_cond_init(conds[i], &attr) != 0) {
			while (i > 0)
				pthread_cond_destroy(conds[--i]);
			ok = 0;
		}
	}
	pthread_condattr_destroy(&attr);
	return (ok ? 0 : -1);
}
#endif

/*
 * Initialize the n condition variables conds[] for timed waits, and
 * return the clock on which their deadlines are measured.
 */
static clockid_t
writer_conds_init(pthread_cond_t *const conds[], size_t n)
{
	size_t i;

#if defined(HAVE_PTHREAD_CONDATTR_SETCLOCK) && defined(CLOCK_MONOTONIC)
	if (conds_init_monotonic(conds, n) == 0)
		return (CLOCK_MONOTONIC);
#endif
	for (i = 0; i < n; i++)
		pthread_cond_init(conds[i], NULL);
	return (CLOCK_REALTIME);
}

/*
 * The time "ms" milliseconds from now on "clock", as
 * pthread_cond_timedwait() wants it.
 */
static void
writer_deadline(clockid_t clock, struct timespec *deadline, long ms)
{
	clock_gettime(clock, deadline);
	deadline->tv_sec += ms / 1000;
	deadline->tv_nsec += (ms % 1000) * 1000000L;
	if (deadline->tv_nsec >= 1000000000L) {
		deadline->tv_sec++;
		deadline->tv_nsec -= 1000000000L;
	}
}

/*
 * The producer's side, which puts records into the ring
 * (pcapint_writer_put() and _put2()).
 */

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
		writer_deadline(w->clock, &deadline, WRITER_IDLE_MS);
		(void)pthread_cond_timedwait(&w->room, &w->lock, &deadline);
	}
	__atomic_store_n(&w->waiting, 0, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&w->lock);
	return (err != 0 ? -1 : 0);
}

/*
 * Start the next lap of the ring with what the writer has still to
 * take, so that the producer goes on writing at the start of the ring,
 * in memory it wrote a moment ago, instead of walking on into memory
 * that is cold.  Only a sleeping writer is moved: it is in its
 * condition wait, which it leaves only with the mutex held here, and
 * reads "tail" again after it.  What it has still to take, less than
 * wake_bytes (it would have been woken for more), is copied to the
 * start; the count of bytes waiting does not change, so no record that
 * would have fitted is dropped, and the high-water mark stays exact.
 * Returns the new head.
 */
static uint64_t
writer_rewind(struct pcapint_writer *w, uint64_t head)
{
	uint64_t tail, start;
	size_t waiting;

	pthread_mutex_lock(&w->lock);
	if (__atomic_load_n(&w->sleeping, __ATOMIC_RELAXED)) {
		tail = __atomic_load_n(&w->tail, __ATOMIC_ACQUIRE);
		waiting = ring_used(head, tail);
		if (waiting < w->wake_bytes) {
			start = (head | (uint64_t)(w->size - 1)) + 1;
			memmove(w->ring, w->ring + (tail & (w->size - 1)),
			    waiting);
			__atomic_store_n(&w->tail, start, __ATOMIC_RELEASE);
			head = start + waiting;
			__atomic_store_n(&w->head, head, __ATOMIC_RELEASE);
			w->tail_seen = start;
			w->rewinds++;
		}
	}
	pthread_mutex_unlock(&w->lock);
	return (head);
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
	if ((size_t)(head & (w->size - 1)) >= w->hot_bytes &&
	    w->hot_bytes != 0 &&
	    __atomic_load_n(&w->sleeping, __ATOMIC_RELAXED))
		head = writer_rewind(w, head);
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

/*
 * The writer thread.
 */

/*
 * On the writer thread, its first act: lower its own priority by
 * nice_incr.  Returns 0 or an errno value.
 */
static int
writer_lower_priority(int nice_incr)
{
#ifdef __linux__
	id_t tid;
	int cur;

	if (nice_incr == 0)
		return (0);
	tid = (id_t)syscall(SYS_gettid);
	errno = 0;
	cur = getpriority(PRIO_PROCESS, tid);
	if (cur == -1 && errno != 0)
		return (errno);
	/* Already as low as it goes: the kernel would clamp it anyway. */
	if (cur + nice_incr > 19)
		nice_incr = 19 - cur;
	if (setpriority(PRIO_PROCESS, tid, cur + nice_incr) != 0)
		return (errno);
	return (0);
#else
	return (nice_incr == 0 ? 0 : ENOTSUP);
#endif
}

/*
 * After freeing room: wake a blocking producer waiting for it.  The
 * release store of tail, the fence, then the load of "waiting" pair
 * with the producer's store of "waiting", fence, load of tail in
 * writer_wait_room() above, as in the sleep handshake below; the producer
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
	err = writer_lower_priority(w->nice_incr);
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
			writer_deadline(w->clock, &deadline,
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

/*
 * Starting, flushing and stopping the writer thread, and its figures.
 */

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
	w->hot_bytes = size / 4 < WRITER_HOT_BYTES ? 0 : WRITER_HOT_BYTES;
	w->ops = ops;
	w->ctx = ctx;
	w->nice_incr = params->nice_incr;
	w->blocking = params->blocking;
	pthread_mutex_init(&w->lock, NULL);
	conds[0] = &w->wake;
	conds[1] = &w->done;
	conds[2] = &w->room;
	w->clock = writer_conds_init(conds, 3);

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
		writer_deadline(w->clock, &deadline, 100);
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

#endif /* SFC_COOKIE_OFF_T */
