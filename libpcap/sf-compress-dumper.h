/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Compressed savefiles: what the options (sf-compress-options.c), the
 * dumper (sf-compress-dumper.c) and its writer thread glue
 * (sf-compress-thread.c, or sf-compress-nothread.c without pthreads)
 * share: the options, the dumper's state, and the calls between them.
 */

#ifndef sf_compress_dumper_h
#define	sf_compress_dumper_h

#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "pcap-int.h"
#include "sf-compress.h"
#include "sf-compress-policy.h"

#define	PCAP_FILE_HDR_LEN	24	/* struct pcap_file_header on disk */
#define	PCAP_REC_HDR_LEN	16	/* struct pcap_sf_pkthdr on disk */

/*
 * Counters the writer thread updates and the application's thread
 * reads (statistics, the seek hook for pcap_dump_ftell64()): only one
 * thread ever stores, so a relaxed atomic store after a plain read is
 * enough, and the readers load them atomically.  Without a writer
 * thread these are plain moves.
 */
#define	SFC_STORE(var, val)	__atomic_store_n(&(var), (val), __ATOMIC_RELAXED)
#define	SFC_LOAD(var)		__atomic_load_n(&(var), __ATOMIC_RELAXED)

struct pcap_dump_options {
	const struct pcapint_sfc_codec *codec;	/* pcapint_sfc_store: none */
	int	level;
	size_t	block_size;
	size_t	ring_size;	/* writer thread's ring; 0: no thread */
	int	cpu;		/* CPU to pin the writer to; -1: none */
	int	nice_incr;	/* how much nicer the writer runs; 0: same */
};

struct pcapint_sfc_thr;

/*
 * A compressed dumper: the FILE * the application holds, the block
 * being filled, the accounting, and the writer thread if it has one.
 */
struct pcapint_sfc_dumper {
	struct pcapint_sfc_dumper *next;	/* in the registry */
	FILE	*fp;		/* the cookie stream, the dumper handle */
	FILE	*raw;		/* where the blocks go */
	int	fd;		/* fileno(raw) */
	const struct pcapint_sfc_codec *codec;
	const char *name;	/* the codec's, for messages */
	void	*enc;
	u_char	*buf;		/* the block being filled */
	size_t	fill;
	size_t	rec_start;	/* where the current record starts in buf */
	size_t	block_size;
	u_char	*out;		/* one compressed block */
	size_t	out_size;
	int64_t	base;		/* offset of raw when we started */
	u_char	hdr[SFC_MAX_HEADER];	/* stream header not yet written */
	size_t	hdr_len;
	int	level;

	/* Record accounting over the pcap byte stream. */
	uint64_t in_bytes;	/* bytes of pcap stream so far */
	size_t	rec_need;	/* header bytes still to collect */
	u_char	rec_hdr[PCAP_REC_HDR_LEN];
	uint64_t rec_body;	/* body bytes of current record left */
	uint64_t records;	/* complete records handed to us */
	uint64_t rec_buffered;	/* ... of them not yet on disk */
	uint64_t rec_written;	/* ... of them on disk */

	uint64_t out_bytes;
	uint64_t blocks;
	uint64_t blocks_stored;

	/* For sf-compress-policy.c: the results it decides from. */
	struct pcapint_sfc_skip skip;
	uint64_t blocks_begun;	/* blocks decided so far */
	u_char	results[SFC_SKIP_LAG];	/* block n's at n % SFC_SKIP_LAG */

	int	err;		/* sticky errno, 0 if none */
	char	errmsg[PCAP_ERRBUF_SIZE];

	/*
	 * The writer thread's glue, NULL without a thread.  With one,
	 * the application's thread only assembles whole records and
	 * hands them to the ring; everything above, but the fields read
	 * through SFC_LOAD(), belongs to the writer thread.
	 */
	struct pcapint_sfc_thr *thr;
};

/* sf-compress-options.c: the codec "default" stands for. */
extern const struct pcapint_sfc_codec *pcapint_sfc_default_codec(void);

/*
 * sf-compress-dumper.c, for the thread glue: the path records take
 * without a thread, which the writer thread takes with one.
 */
extern void pcapint_sfc_stream_write(struct pcapint_sfc_dumper *,
    const u_char *, size_t);
extern int pcapint_sfc_flush_block(struct pcapint_sfc_dumper *);
extern int pcapint_sfc_try_codec(struct pcapint_sfc_dumper *);
extern int pcapint_sfc_block_out(struct pcapint_sfc_dumper *,
    const u_char *, ssize_t, int stored, size_t fill, uint64_t records,
    const char *ebuf);

/*
 * The writer thread glue, sf-compress-thread.c; sf-compress-nothread.c
 * has what a build without pthreads does instead.
 *
 * The checks of the options: 0, or -1 with errbuf filled in.
 */
extern int pcapint_sfc_thr_check_ring(size_t ring_size, char *errbuf);
extern int pcapint_sfc_thr_check_cpu(int cpu, char *errbuf);
extern int pcapint_sfc_thr_check_nice(int nice_incr, char *errbuf);

/*
 * Start the writer thread of a dumper whose options ask for one, once
 * the file header is in the block; 0, or -1 with p's errbuf filled in.
 */
extern int pcapint_sfc_thr_start(struct pcapint_sfc_dumper *, pcap_t *,
    const pcap_dump_options_t *);

/*
 * With a thread (w->thr != NULL): bytes fwrite() to the dumper, a whole
 * record from pcap_dump() (0 taken, -1 to go the long way, through
 * fwrite()), a flush (0 or -1 after an error), the block with helpers
 * (1 if handed to them, with *ret the result), the statistics the
 * thread keeps, and the stop that drains the ring and joins the thread,
 * after which this thread owns the dumper again.
 */
extern void pcapint_sfc_thr_write(struct pcapint_sfc_dumper *,
    const u_char *, size_t);
extern int pcapint_sfc_thr_record(struct pcapint_sfc_dumper *, const void *,
    const u_char *, bpf_u_int32);
extern int pcapint_sfc_thr_flush(struct pcapint_sfc_dumper *);
extern int pcapint_sfc_thr_submit(struct pcapint_sfc_dumper *, int *ret);
extern void pcapint_sfc_thr_stats(struct pcapint_sfc_dumper *,
    struct pcap_dump_stats *);
extern void pcapint_sfc_thr_stop(struct pcapint_sfc_dumper *);

/*
 * Flush a dumper, take its final figures and error message and close
 * it: what pcap_dump_close_async() does for each dumper handed to it,
 * on a thread of its own (sf-close-async.c) or, without pthreads, at
 * once (sf-compress-nothread.c).  Returns 0 or PCAP_ERROR; *stp is NULL
 * if there are no figures (a plain dumper), msg empty if no error.
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

#endif
