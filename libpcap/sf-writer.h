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
 * A writer thread for savefiles: the capturing thread hands bytes to a
 * single-producer/single-consumer ring and goes back to reading packets;
 * a separate thread takes them out of the ring and does the slow part
 * (compressing, write()).  Where that thread runs, and closing a dumper
 * in the background (pcap_dump_close_async(), which pcap/pcap.h
 * declares), belong with it.  See sf-writer.c for why; this header
 * declares what other files call of it.
 */

#ifndef sf_writer_h
#define	sf_writer_h

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pcap-int.h"

/*
 * The ring and its thread.  Built with pthreads and a dumper; the
 * compressing dumper's glue (sf-compress-thread.c) starts, feeds and
 * stops it.
 */
struct pcapint_writer;

/*
 * What the writer thread does with the bytes.  Both callbacks run on the
 * writer thread only, so they need no locking of their own.
 *
 * consume() gets the stream in order, in contiguous pieces of any size
 * (the ring wraps); it returns 0, or an errno value, which becomes the
 * writer's sticky error: nothing is consumed after it, and every record
 * handed over after it is counted as lost.
 *
 * flush() is called when the producer asks for a flush, after every byte
 * handed over before the request has been consumed; it returns 0 or an
 * errno value, as consume() does.
 */
struct pcapint_writer_ops {
	int	(*consume)(void *ctx, const unsigned char *buf, size_t len);
	int	(*flush)(void *ctx);
};

struct pcapint_writer_stats {
	uint64_t	bytes_in;	/* bytes handed to the ring */
	uint64_t	records_in;	/* records handed to the ring */
	uint64_t	dropped_full;	/* records refused: ring full */
	uint64_t	dropped_error;	/* records refused: sticky error */
	size_t		high_water;	/* most bytes ever waiting in the ring */
	size_t		ring_size;
	int		error;		/* the sticky errno value, or 0 */
};

/*
 * How the writer thread is started; zeroed, it is an unpinned thread at
 * the caller's priority whose producer drops records on a full ring.
 */
struct pcapint_writer_params {
	size_t	ring_size;	/* bytes, rounded up to a power of two */
	int	cpu;		/* >= 0: pin the thread to that CPU */
	int	nice_incr;	/* > 0: the thread lowers its priority so */
	int	blocking;	/* put waits for room instead of dropping */
};

/*
 * Start a writer thread.  A failure to pin the thread or to lower its
 * priority fails the call, so that a user who asked for either never
 * silently runs without it.  Returns NULL with errbuf filled in on
 * failure.
 */
struct pcapint_writer *pcapint_writer_start(
    const struct pcapint_writer_params *params,
    const struct pcapint_writer_ops *ops, void *ctx, char *errbuf);

/*
 * Producer side; only ever called from one thread at a time.
 *
 * pcapint_writer_put() copies one record (len bytes, len <= ring size)
 * into the ring, whole or not at all.  Returns 0, or -1 if it was
 * dropped (ring full, or the writer has a sticky error); either way it
 * is counted.  It never blocks and makes no system call unless the
 * writer thread is asleep and must be woken -- except in blocking mode
 * (params.blocking), where a full ring makes it wait for room, so that
 * only a sticky error drops a record.
 */
int	pcapint_writer_put(struct pcapint_writer *, const void *, size_t);

/*
 * Two-part variant for a record that arrives as header and data: the
 * record is accepted only if both parts fit.
 */
int	pcapint_writer_put2(struct pcapint_writer *, const void *, size_t,
	    const void *, size_t);

/*
 * Wait until everything handed over so far has been consumed and
 * flush() has run.  Returns 0 or the sticky errno value: ETIMEDOUT if
 * the writer consumed nothing for 10 seconds (WRITER_STALL_MS), stuck
 * in a write(); pcapint_writer_stop() then cancels that write().
 */
int	pcapint_writer_flush(struct pcapint_writer *);

/*
 * write(), for consume() and flush(): the one place where the writer
 * thread can be cancelled, by a stop that gave up on a stalled write.
 * On any other thread it is write() (whose cancel state it keeps);
 * without pthreads, sf-compress-nothread.c makes it write().
 */
ssize_t	pcapint_writer_write_cancellable(int, const void *, size_t);

void	pcapint_writer_get_stats(struct pcapint_writer *,
	    struct pcapint_writer_stats *);

/*
 * On the writer thread: the bytes waiting in the ring, and its size.
 */
size_t	pcapint_writer_backlog(struct pcapint_writer *);
size_t	pcapint_writer_ring_size(struct pcapint_writer *);

/*
 * Drain the ring, stop and join the thread and free everything.  Returns
 * 0 or the sticky errno value.
 */
int	pcapint_writer_stop(struct pcapint_writer *);

/*
 * Where a writer thread runs and how nicely.  Built with pthreads, with
 * or without a dumper: the writer options check a CPU and a priority
 * when they are set (sf-compress-writer-options.c).
 */

/*
 * 0 if the writer thread can lower its priority by nice_incr (1 to 19;
 * 0 leaves it alone), -1 with errbuf filled in otherwise.
 */
int	pcapint_writer_check_nice(int nice_incr, char *errbuf);

/*
 * 0 if the writer thread can be pinned to that CPU (it exists and this
 * process may run on it), -1 with errbuf filled in otherwise.
 */
int	pcapint_writer_check_cpu(int cpu, char *errbuf);

/*
 * Name the calling thread (15 characters at most), where the platform
 * has a way to; for threads of ours a user may see in top -H (the
 * compression helpers of sf-compress-jobs.c name themselves with it).
 */
void	pcapint_writer_set_name(const char *name);

/*
 * Closing a dumper and collecting what a pcap_dump_close_async()
 * handler is told: sf-writer.c does it on a thread of its own,
 * sf-compress-nothread.c at once.
 *
 * Flush a dumper, take its final figures and error message and close
 * it.  Returns 0 or PCAP_ERROR; *stp is NULL if there are no figures (a
 * plain dumper), msg empty if no error.
 */
static inline int
pcapint_dump_close_report(pcap_dumper_t *d, struct pcap_dump_stats *st,
    const struct pcap_dump_stats **stp, char *msg, size_t msgsize)
{
	const char *e;
	int status;

	/*
	 * Flush first, which waits for the ring to drain: the figures
	 * taken after it are final (close only adds a trailer).
	 */
	status = pcap_dump_flush(d) == -1 ? PCAP_ERROR : 0;
	memset(st, 0, sizeof(*st));
	*stp = pcap_dump_get_stats(d, st, sizeof(*st)) == 0 ? st : NULL;
	msg[0] = '\0';
	e = pcap_dump_geterr(d);
	if (e != NULL)
		pcapint_strlcpy(msg, e, msgsize);
	pcap_dump_close(d);
	if (status != 0 && msg[0] == '\0')
		snprintf(msg, msgsize, "error flushing the savefile");
	return (status);
}

#endif /* sf_writer_h */
