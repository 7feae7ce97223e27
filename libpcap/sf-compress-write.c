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
 * Compressed savefiles, writing: the dump options and the dumper, a pcap
 * stream in a standard container (a gzip member, LZ4 or zstd frame per
 * block) that other tools read.  Blocks go through the stages below
 * (assembler, planner, codec, sink), on a writer thread (sf-writer.c) with
 * helpers if asked for.  Without fopencookie() or funopen(), or __atomic
 * builtins, the calls open the plain dumper, and refuse options.
 */

#include <config.h>

#include "ftmacros.h"	/* fopencookie(); _GNU_SOURCE, for CPU affinity */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
#include <sched.h>
#ifdef HAVE_PTHREADS
#include <pthread.h>
#include <signal.h>
#endif

#include "pcap-int.h"
#include "sf-compress.h"

/* The dump options, each checked when set, so that errors show there. */
struct pcap_dump_options {
	const struct pcapint_sfc_encoder *codec;	/* store's: no codec */
	int	level;
	size_t	block_size;
	int	block_size_set;	/* by pcap_dump_options_set_block_size() */
	size_t	ring_size;	/* writer thread's ring; 0: no thread */
	int	cpu;		/* CPU to pin the writer to; -1: none */
	int	nice_incr;	/* how much nicer the writer runs; 0: same */
	int	adaptive;	/* the dumper picks the level ("zstd:auto") */
};

/* Larger blocks compress better, but overshoot a size limit more. */
#define	SFC_MIN_BLOCK		4096

pcap_dump_options_t *
pcap_dump_options_create(char *errbuf)
{
	pcap_dump_options_t *o;

	if ((o = calloc(1, sizeof(*o))) == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		return (NULL);
	}
	o->codec = &pcapint_sfc_store;
	o->block_size = PCAP_DUMP_BLOCK_DEFAULT;
	o->cpu = -1;
	return (o);
}

void
pcap_dump_options_free(pcap_dump_options_t *o)
{
	free(o);
}

static int sfc_error(char *, PCAP_FORMAT_STRING(const char *), ...)
    PCAP_PRINTFLIKE(2, 3);

static int
sfc_error(char *errbuf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(errbuf, PCAP_ERRBUF_SIZE, fmt, ap);
	va_end(ap);
	return (PCAP_ERROR);
}

/* By container, NULL where the codec was not built. */
static const struct pcapint_sfc_encoder *const
    sfc_encoders[SFC_NCONTAINERS] = {
	[SFC_STORE] = &pcapint_sfc_store,
#ifdef HAVE_LIBZSTD
	[SFC_ZSTD] = &pcapint_sfc_zstd_encoder,
#endif
#ifdef HAVE_LIBLZ4
	[SFC_LZ4] = &pcapint_sfc_lz4_encoder,
#endif
#ifdef HAVE_ZLIB
	[SFC_GZIP] = &pcapint_sfc_gzip_encoder,
#endif
#ifdef SFC_LZOP_CONTAINER
#ifdef HAVE_LIBLZO2
	[SFC_LZO] = &pcapint_sfc_lzo_encoder,
#endif
#endif
};

/* The first built encoder that compresses, else store's. */
static const struct pcapint_sfc_encoder *
sfc_default_encoder(void)
{
	u_int i;

	for (i = 0; i < SFC_NCONTAINERS; i++)
		if (sfc_encoders[i] != NULL && sfc_encoders[i]->compresses)
			return (sfc_encoders[i]);
	return (&pcapint_sfc_store);
}

int
pcap_dump_options_set_compression(pcap_dump_options_t *o, const char *spec,
    char *errbuf)
{
	const struct pcapint_sfc_container *c;
	const struct pcapint_sfc_encoder *enc;
	const char *colon;
	char *end, names[64];
	size_t namelen, n;
	long level;
	u_int i;

	if (o == NULL)
		return (sfc_error(errbuf, "NULL dump options"));
	if (spec == NULL || strcmp(spec, "default") == 0)
		spec = SFC_ENCODER_NAME(sfc_default_encoder());
	colon = strchr(spec, ':');
	namelen = colon != NULL ? (size_t)(colon - spec) : strlen(spec);
	names[0] = '\0';
	for (i = 0; i < SFC_NCONTAINERS; i++) {
		c = &pcapint_sfc_containers[i];
		if (strlen(c->name) == namelen &&
		    strncmp(spec, c->name, namelen) == 0)
			break;
		n = strlen(names);
		snprintf(names + n, sizeof(names) - n, "%s%s",
		    i == 0 ? "" : ", ", c->name);
	}
	if (i == SFC_NCONTAINERS)
		return (sfc_error(errbuf,
		    "unknown compression \"%.*s\" (known: %s)",
		    (int)(namelen > 32 ? 32 : namelen), spec, names));
	if ((enc = sfc_encoders[i]) == NULL)
		return (sfc_error(errbuf,
		    "compression \"%s\" is not supported by this build of libpcap",
		    c->name));
	if (!enc->compresses && colon != NULL)
		return (sfc_error(errbuf, "compression \"%s\" takes no level",
		    c->name));
	/* No level, or "auto": the dumper picks it block by block. */
	if (colon == NULL || strcmp(colon + 1, "auto") == 0) {
		o->codec = enc;
		o->level = enc->default_level;
		o->adaptive = enc->compresses;
		return (0);
	}
	errno = 0;
	level = strtol(colon + 1, &end, 10);
	if (colon[1] == '\0' || *end != '\0' || errno != 0)
		return (sfc_error(errbuf,
		    "invalid compression level \"%.32s\" for %s", colon + 1,
		    c->name));
	if (level < enc->min_level || level > enc->max_level)
		return (sfc_error(errbuf,
		    "compression level %ld out of range for %s (%d..%d)",
		    level, c->name, enc->min_level, enc->max_level));
	o->codec = enc;
	o->level = (int)level;
	o->adaptive = 0;
	return (0);
}

int
pcap_dump_options_set_block_size(pcap_dump_options_t *o, size_t size,
    char *errbuf)
{
	if (o == NULL)
		return (sfc_error(errbuf, "NULL dump options"));
	if (size < SFC_MIN_BLOCK || size > SFC_MAX_BLOCK)
		return (sfc_error(errbuf,
		    "compression block size %zu out of range (%d..%d bytes)",
		    size, SFC_MIN_BLOCK, SFC_MAX_BLOCK));
	o->block_size = size;
	o->block_size_set = 1;
	return (0);
}

/* Writer ring bounds (default in pcap/pcap.h): a 64 KiB record fits. */
#define	SFC_MIN_RING		(64 * 1024)
#define	SFC_MAX_RING		((size_t)1 << (sizeof(size_t) > 4 ? 40 : 30))

#ifndef HAVE_PTHREADS
#define	SFC_NO_THREADS	"this build of libpcap has no writer thread (no pthreads)"
/* sf-writer.c's check, where there is no thread to pin. */
#define	pcapint_writer_check_cpu(cpu, errbuf)	sfc_error(errbuf, \
	"cannot pin the writer thread to CPU %d: %s", cpu, SFC_NO_THREADS)
#define	pcapint_writer_write_cancellable	write	/* no thread to cancel */
#endif

int
pcap_dump_options_set_writer_thread(pcap_dump_options_t *o, size_t ring_size,
    char *errbuf)
{
	if (o == NULL)
		return (sfc_error(errbuf, "NULL dump options"));
	if (ring_size == 0)
		o->cpu = -1;	/* off, pinning included */
#ifdef HAVE_PTHREADS
	else if (ring_size < SFC_MIN_RING || ring_size > SFC_MAX_RING)
		return (sfc_error(errbuf,
		    "writer ring size %zu out of range (%d..%zu bytes)",
		    ring_size, SFC_MIN_RING, SFC_MAX_RING));
#else
	else
		return (sfc_error(errbuf, "%s", SFC_NO_THREADS));
#endif
	o->ring_size = ring_size;
	return (0);
}

int
pcap_dump_options_set_writer_cpu(pcap_dump_options_t *o, int cpu,
    char *errbuf)
{
	if (o == NULL)
		return (sfc_error(errbuf, "NULL dump options"));
	if (cpu != -1 && pcapint_writer_check_cpu(cpu, errbuf) != 0)
		return (PCAP_ERROR);
	o->cpu = cpu;
	if (cpu != -1 && o->ring_size == 0)
		o->ring_size = PCAP_DUMP_WRITER_RING_DEFAULT;
	return (0);
}

/* Only lower: on a shared CPU a late capture loses packets, a writer lags. */
int
pcap_dump_options_set_writer_priority(pcap_dump_options_t *o, int nice_incr,
    char *errbuf)
{
	if (o == NULL)
		return (sfc_error(errbuf, "NULL dump options"));
	/* It takes effect only if a writer thread starts. */
#ifndef HAVE_PTHREADS
	if (nice_incr != 0)
		return (sfc_error(errbuf,
		    "cannot lower the writer thread's priority: %s",
		    SFC_NO_THREADS));
#endif
	if (nice_incr < 0 || nice_incr > 19)
		return (sfc_error(errbuf,
		    "writer thread priority decrease %d is out of range (0 to 19)",
		    nice_incr));
#ifndef __linux__	/* the only one with per-thread nice values */
	if (nice_incr != 0)
		return (sfc_error(errbuf,
		    "cannot lower the writer thread's priority: not supported on this platform"));
#endif
	o->nice_incr = nice_incr;
	return (0);
}

void
pcapint_sfc_put_le32(u_char *p, uint32_t v)
{
	p[0] = (u_char)v;
	p[1] = (u_char)(v >> 8);
	p[2] = (u_char)(v >> 16);
	p[3] = (u_char)(v >> 24);
}

/* A skippable frame, as LZ4 and zstd frames have them, of len bytes. */
size_t
pcapint_sfc_skippable_pad(u_char *out, size_t len)
{
	if (len < 8 || len - 8 > UINT32_MAX)
		return (0);
	memset(out, 0, len);
	pcapint_sfc_put_le32(out, 0x184D2A50U);
	pcapint_sfc_put_le32(out + 4, (uint32_t)(len - 8));
	return (len);
}

/* "store": blocks go out as collected, as a plain savefile; no buffer. */
static int store_state;		/* its address says the creation succeeded */

static void *
store_enc_create(int level _U_, size_t block_size _U_, char *errbuf _U_)
{
	return (&store_state);
}

static void
store_enc_free(void *state _U_)
{
}

static size_t
store_enc_bound(void *state _U_, size_t len _U_)
{
	return (0);
}

static ptrdiff_t
store_enc_block(void *state _U_, const u_char *in, size_t len,
    u_char *out _U_, size_t outsize _U_, int try_codec _U_, int *stored,
    const u_char **res, char *errbuf _U_)
{
	*stored = 1;
	*res = in;
	return ((ptrdiff_t)len);
}

const struct pcapint_sfc_encoder pcapint_sfc_store = {
	SFC_STORE, 0,
	0, 0, 0,
	store_enc_create, store_enc_free, store_enc_bound, store_enc_block,
	NULL, NULL, NULL	/* one level: no ladder */
};
#ifdef SFC_DUMPER

#define	PCAP_FILE_HDR_LEN	24	/* struct pcap_file_header on disk */

/* Counters that one thread stores and others read (statistics, ftell). */
#define	SFC_STORE(var, val)	__atomic_store_n(&(var), (val), __ATOMIC_RELAXED)
#define	SFC_LOAD(var)		__atomic_load_n(&(var), __ATOMIC_RELAXED)

static uint64_t
sfc_clock_ns(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts) != 0)
		return (0);
	return ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
}

/*
 * The assembler, the one parser of the pcap stream (host byte order).  A
 * record that does not fit starts the next block, so that a file cut
 * after any block is a valid savefile; only one larger than a block spans.
 */
struct sfc_assembler {
	u_char	*buf;		/* the block being filled */
	size_t	fill;
	size_t	full;		/* the fill at which it is full */
	uint64_t records;	/* records that ended in it */
	/* Hands the block on, calling sfc_assembler_next(); -1: error. */
	int	(*block_full)(void *ctx);
	void	*ctx;
	int	failed;		/* sticky: nothing stored, records counted */
	void	(*record_end)(void *ctx);	/* at records' ends, or NULL */
	/* The parse of the stream (counts read with SFC_LOAD() elsewhere). */
	uint64_t in_bytes;	/* bytes of pcap stream so far */
	uint64_t in_records;	/* records, complete, so far */
	u_char	hdr[PCAP_REC_HDR_LEN];	/* the record header so far */
	size_t	hdr_fill;
	uint64_t body;		/* body bytes of the current record left */
};

/* Hand on what is in the block, if anything; 0, or -1 (see block_full). */
static int
sfc_assembler_flush(struct sfc_assembler *a)
{
	if (a->failed)
		return (-1);
	if (a->fill == 0)
		return (0);
	if (a->block_full(a->ctx) != 0) {
		/* Not to stdio: its error flag would drop later records. */
		a->failed = 1;
		a->records = a->fill = 0;
		return (-1);
	}
	return (0);
}

/* For block_full: fill buf next (maybe the block just taken). */
static void
sfc_assembler_next(struct sfc_assembler *a, u_char *buf, size_t full)
{
	a->buf = buf;
	a->records = a->fill = 0;
	a->full = full;
}

/* From now on hand full blocks to block_full(ctx), filling buf. */
static void
sfc_assembler_redirect(struct sfc_assembler *a, u_char *buf,
    int (*block_full)(void *), void *ctx)
{
	if (buf != a->buf && a->fill != 0)
		memmove(buf, a->buf, a->fill);
	a->buf = buf;
	a->block_full = block_full;
	a->ctx = ctx;
}

static size_t
sfc_take(u_char *dst, size_t room, const u_char **p, size_t *len)
{
	size_t n = room < *len ? room : *len;

	memcpy(dst, *p, n);
	*p += n;
	*len -= n;
	return (n);
}

/* Append; a record larger than a block is handed on as it fills. */
static void
sfc_put(struct sfc_assembler *a, const u_char *p, size_t len)
{
	while (len != 0 && !a->failed) {
		/* At or past: a block whose size shrank may be over full. */
		if (a->fill >= a->full)
			(void)sfc_assembler_flush(a);
		else
			a->fill += sfc_take(a->buf + a->fill,
			    a->full - a->fill, &p, &len);
	}
}

/* A record of len bytes begins: in the next block if not in this one. */
static void
sfc_record_begins(struct sfc_assembler *a, uint64_t len)
{
	if (a->fill != 0 && a->fill + len > a->full)
		(void)sfc_assembler_flush(a);
}

static void
sfc_record_ends(struct sfc_assembler *a)
{
	SFC_STORE(a->in_records, a->in_records + 1);
	a->records++;
	if (a->record_end != NULL)
		a->record_end(a->ctx);
}

/* Take len bytes of the stream, split anywhere. */
static void
sfc_assemble(struct sfc_assembler *a, const u_char *p, size_t len)
{
	uint32_t caplen;
	size_t n;

	n = a->in_bytes < PCAP_FILE_HDR_LEN ?
	    PCAP_FILE_HDR_LEN - (size_t)a->in_bytes : 0;
	if (n > len)
		n = len;
	SFC_STORE(a->in_bytes, a->in_bytes + len);
	sfc_put(a, p, n);
	p += n;
	len -= n;
	while (len != 0) {
		if (a->hdr_fill == 0 && len >= PCAP_REC_HDR_LEN) {
			memcpy(&caplen, p + 8, sizeof(caplen));
			if (caplen <= len - PCAP_REC_HDR_LEN) {
				/* A whole record, the usual case: one copy. */
				n = PCAP_REC_HDR_LEN + (size_t)caplen;
				sfc_record_begins(a, n);
				sfc_put(a, p, n);
				p += n;
				len -= n;
				sfc_record_ends(a);
				continue;
			}
		}
		if (a->hdr_fill < PCAP_REC_HDR_LEN) {
			/* The header is put once it is whole. */
			a->hdr_fill += sfc_take(a->hdr + a->hdr_fill,
			    PCAP_REC_HDR_LEN - a->hdr_fill, &p, &len);
			if (a->hdr_fill < PCAP_REC_HDR_LEN)
				break;
			memcpy(&caplen, a->hdr + 8, sizeof(caplen));
			a->body = caplen;
			sfc_record_begins(a, PCAP_REC_HDR_LEN + (uint64_t)caplen);
			sfc_put(a, a->hdr, PCAP_REC_HDR_LEN);
		} else {
			n = len < a->body ? len : (size_t)a->body;
			sfc_put(a, p, n);
			a->body -= n;
			p += n;
			len -= n;
		}
		if (a->body == 0) {
			a->hdr_fill = 0;
			sfc_record_ends(a);
		}
	}
}

/* A whole record; between records, the usual case, put without the parse. */
static int
sfc_assemble_record(struct sfc_assembler *a, const void *hdr,
    const u_char *data, size_t caplen)
{
	if (a->hdr_fill != 0 || a->in_bytes < PCAP_FILE_HDR_LEN) {
		sfc_assemble(a, hdr, PCAP_REC_HDR_LEN);
		sfc_assemble(a, data, caplen);
		return (0);
	}
	SFC_STORE(a->in_bytes, a->in_bytes + PCAP_REC_HDR_LEN + caplen);
	sfc_record_begins(a, PCAP_REC_HDR_LEN + (uint64_t)caplen);
	sfc_put(a, hdr, PCAP_REC_HDR_LEN);
	sfc_put(a, data, caplen);
	sfc_record_ends(a);
	return (0);
}

/*
 * The planner picks each block's level, or none: after SFC_SKIP_AFTER
 * incompressible blocks in a row, it tries only every SFC_SKIP_EVERY-th.
 */
#define	SFC_SKIP_AFTER		4
#define	SFC_SKIP_EVERY		16

enum sfc_block_result {
	SFC_BLOCK_UNKNOWN,		/* none yet (the first blocks) */
	SFC_BLOCK_COMPRESSED,
	SFC_BLOCK_INCOMPRESSIBLE
};

/* Blocks filled from now on have the size of the controller's rung. */
static void
sfc_planner_block_full(struct pcapint_sfc_planner *pl)
{
	if (pl->block_unit != 0)
		pl->block_full = pl->block_unit *
		    pl->adapt->ladder->rungs[pl->adapt->rung].scale;
}

int
pcapint_sfc_planner_init(struct pcapint_sfc_planner *pl,
    const struct pcap_dump_options *opts, int offline, char *errbuf)
{
	const struct pcapint_sfc_adapt_ladder *ladder;
	u_int i, scale = 1;

	memset(pl, 0, sizeof(*pl));
	pl->codec = opts->codec;
	pl->level = opts->level;
	pl->block_size = pl->block_full = opts->block_size;
	/* A container with a single level has nothing to choose from. */
	ladder = pl->codec->ladder;
	if (!opts->adaptive || pl->codec->enc_level == NULL || ladder == NULL)
		return (0);
	/*
	 * Unless a size was set, rungs scale blocks up to SFC_MAX_BLOCK (what
	 * readers accept); buffers hold the largest (pages are touched lazily).
	 */
	for (i = 0; i < ladder->nrungs; i++)
		if (ladder->rungs[i].scale > scale)
			scale = ladder->rungs[i].scale;
	if (!opts->block_size_set && scale > 1 &&
	    opts->block_size <= SFC_MAX_BLOCK / scale) {
		pl->block_unit = opts->block_size;
		pl->block_size = opts->block_size * scale;
	}
	pl->adapt = pcapint_sfc_calloc(sizeof(*pl->adapt), errbuf);
	if (pl->adapt == NULL)
		return (-1);
	/* A copy loses nothing by waiting, so it never stores to keep up. */
	pcapint_sfc_adapt_init(pl->adapt, ladder, offline ? 1 : 0);
	pl->level = ladder->rungs[pl->adapt->rung > 0 ?
	    pl->adapt->rung : 1].level;
	sfc_planner_block_full(pl);
	return (0);
}

void
pcapint_sfc_planner_plan(struct pcapint_sfc_planner *pl,
    struct pcapint_sfc_block *b)
{
	struct pcapint_sfc_adapt_choice choice;
	enum sfc_block_result lagged;
	int skip_tries;

	/* Unknown (0) until a block SFC_SKIP_LAG before is learned from. */
	lagged = (enum sfc_block_result)pl->results[pl->planned++ %
	    SFC_SKIP_LAG];
	if (lagged == SFC_BLOCK_INCOMPRESSIBLE)
		pl->stored_run++;
	else if (lagged == SFC_BLOCK_COMPRESSED)
		pl->stored_run = pl->skip_count = 0;
	skip_tries = pl->stored_run < SFC_SKIP_AFTER ||
	    (++pl->skip_count % SFC_SKIP_EVERY) == 0;
	b->rung = 0;
	b->plan = PCAPINT_SFC_ADAPT_SKIP_DECIDES;
	b->level = pl->level;
	b->try_codec = pl->codec->compresses && skip_tries;
	if (pl->adapt == NULL)
		return;
	pcapint_sfc_adapt_choose(pl->adapt, &choice);
	b->level = choice.level;
	b->rung = choice.rung;
	b->plan = choice.how;
	if (choice.how == PCAPINT_SFC_ADAPT_STORE_IT)
		b->try_codec = 0;
	else if (choice.how == PCAPINT_SFC_ADAPT_PROBE)
		b->try_codec = 1;
}

void
pcapint_sfc_planner_learn(struct pcapint_sfc_planner *pl,
    const struct pcapint_sfc_block *b)
{
	u_char result = SFC_BLOCK_UNKNOWN;

	/* Under 1/32 saved: incompressible payloads behind record headers. */
	if (pl->codec->compresses)
		result = (u_char)(b->stored ||
		    (size_t)b->out_len > b->fill - b->fill / 32 ?
		    SFC_BLOCK_INCOMPRESSIBLE : SFC_BLOCK_COMPRESSED);
	/* A block the controller stored says nothing of the traffic. */
	if (b->plan == PCAPINT_SFC_ADAPT_STORE_IT)
		result = SFC_BLOCK_UNKNOWN;
	pl->results[pl->learned++ % SFC_SKIP_LAG] = result;
}

void
pcapint_sfc_planner_measure(struct pcapint_sfc_planner *pl,
    const struct pcapint_sfc_block *b, uint64_t write_ns,
    struct pcapint_sfc_adapt_sample *s)
{
	uint64_t now;

	SFC_STORE(pl->blocks_at[b->rung], pl->blocks_at[b->rung] + 1);
	if (pl->adapt == NULL)
		return;
	now = sfc_clock_ns(CLOCK_MONOTONIC);
	s->rung = b->rung;
	s->bytes_in = b->fill;
	s->bytes_out = (uint64_t)b->out_len;
	s->tried_in = b->try_codec ? s->bytes_in : 0;
	s->tried_out = b->try_codec ? s->bytes_out : 0;
	s->cpu_ns = b->cpu_ns;
	s->cold = b->cold;
	s->write_ns = write_ns;
	s->wall_ns = pl->last_sample_ns != 0 && now > pl->last_sample_ns ?
	    now - pl->last_sample_ns : 0;
	pl->last_sample_ns = now;
	pcapint_sfc_adapt_feed(pl->adapt, s);
	SFC_STORE(pl->level_moves, pl->adapt->moves);
	sfc_planner_block_full(pl);
}

static void
sfc_planner_stats(struct pcapint_sfc_planner *pl, struct pcap_dump_stats *st)
{
	const struct pcapint_sfc_adapt_ladder *ladder;
	u_int n;

	if (!pl->codec->compresses)
		return;
	if (pl->adapt == NULL) {
		st->nlevels = 1;
		st->levels[0] = pl->level;
		st->blocks_at_level[0] = SFC_LOAD(pl->blocks_at[0]);
		return;
	}
	/* The ladder never changes: only the counts need care. */
	ladder = pl->adapt->ladder;
	st->adaptive = 1;
	st->level_changes = SFC_LOAD(pl->level_moves);
	st->blocks_at_store = SFC_LOAD(pl->blocks_at[PCAPINT_SFC_ADAPT_STORE]);
	for (n = 0; n < PCAP_DUMP_STATS_LEVELS && n + 1 < ladder->nrungs;
	    n++) {
		st->levels[n] = ladder->rungs[n + 1].level;
		st->blocks_at_level[n] = SFC_LOAD(pl->blocks_at[n + 1]);
	}
	st->nlevels = (int)n;
}

/* The codec stage.  The thread's CPU time is what the codec costs. */
#ifdef CLOCK_THREAD_CPUTIME_ID
#define	SFC_THREAD_CPU_NS()	sfc_clock_ns(CLOCK_THREAD_CPUTIME_ID)
#else
#define	SFC_THREAD_CPU_NS()	0
#endif

void
pcapint_sfc_block_compress(const struct pcapint_sfc_encoder *codec,
    struct pcapint_sfc_block *b)
{
	uint64_t start;

	b->stored = 0;
	b->ebuf[0] = '\0';
	b->res = b->out;
	b->cpu_ns = 0;
	b->cold = 0;
	if (b->try_codec && codec->enc_level != NULL &&
	    codec->enc_level(b->enc, b->level, b->ebuf) == -1) {
		b->out_len = -1;
		return;
	}
	start = SFC_THREAD_CPU_NS();
	b->out_len = codec->enc_block(b->enc, b->in, b->fill, b->out,
	    b->out_size, b->try_codec, &b->stored, &b->res, b->ebuf);
	b->cpu_ns = SFC_THREAD_CPU_NS() - start;
	/* A new level's first block costs more: cold, it is not counted. */
	if (b->try_codec) {
		b->cold = b->warm_level != b->level;
		b->warm_level = b->level;
	}
}

/*
 * The sink: one write() per block, between header and trailer; it counts,
 * and keeps the first error, sticky, but a full disk loses only blocks.
 */
struct sfc_sink {
	FILE	*raw;		/* where the blocks go */
	int	fd;		/* fileno(raw) */
	int	can_cut;	/* raw is a regular file, which ftruncate() cuts */
	u_char	*direct;	/* O_DIRECT: last page, then the next write */
	size_t	direct_room;	/* for the bytes of one write, beyond those */
	int64_t	base;		/* offset of raw when the dumper began */
	const struct pcapint_sfc_encoder *codec;
	/* Not written yet: the stream header, and the first block if kept. */
	u_char	hdr[4 * SFC_MAX_HEADER];
	size_t	hdr_len;
	int	first_kept;	/* the first block, in hdr: it found no space */
	/* Read by other threads with SFC_LOAD(). */
	uint64_t out_bytes;	/* bytes written */
	uint64_t blocks;	/* blocks written */
	uint64_t blocks_stored;	/* ... of them stored by a codec */
	uint64_t records;	/* records written */
	uint64_t records_lost;	/* records in blocks lost for lack of space */
	uint64_t space_stops;	/* times writing stopped for lack of space */
	int	space_error;	/* ENOSPC or EDQUOT while stopped, else 0 */
	/* The first error, sticky: see sfc_sink_fail(). */
	int	err_claimed;
	int	err;
	char	errmsg[PCAP_ERRBUF_SIZE];
};

/*
 * Make err sticky, with the message what (and err's text if with_errno),
 * unless one is kept.  Two threads may fail a sink (the application's on
 * a stalled savefile): the claimant (no barrier: the claim orders nothing)
 * writes errmsg, then err with release, so readers see it whole.  A loser
 * spins for that store, which the claimant can neither block nor be
 * cancelled before, so that err is set on return.
 */
static void
sfc_sink_fail(struct sfc_sink *s, int err, int with_errno, const char *what)
{
	int unclaimed = 0;

	if (!__atomic_compare_exchange_n(&s->err_claimed, &unclaimed, 1, 0,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		while (__atomic_load_n(&s->err, __ATOMIC_ACQUIRE) == 0)
			sched_yield();
		return;
	}
	if (err == 0)
		err = EIO;
	if (with_errno)
		pcapint_fmt_errmsg_for_errno(s->errmsg, sizeof(s->errmsg),
		    err, "%s", what);
	else
		snprintf(s->errmsg, sizeof(s->errmsg), "%s", what);
	__atomic_store_n(&s->err, err, __ATOMIC_RELEASE);
}

/* All of p, or -1 with errno set. */
static int
sfc_write_all(int fd, const u_char *p, size_t len)
{
	ssize_t n;

	while (len != 0) {
		n = pcapint_writer_write_cancellable(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		p += n;
		len -= (size_t)n;
	}
	return (0);
}

/*
 * A kill can cut a buffered write() at any page that it copies, leaving a
 * file that ends inside a block; on Linux an O_DIRECT write() to a disk
 * runs to its end.  It must start and end on the device's blocks: each
 * write starts at the page where the last one ended, and ends with a unit
 * that the codec's readers skip, which the next write overwrites and the
 * close cuts off.  Not on a descriptor that the program shares, whose
 * O_DIRECT flag and offset the program would see.
 */
#define	SFC_DIRECT_ALIGN	4096	/* a page: a multiple of any block */
#ifndef O_DIRECT
#define	O_DIRECT	0	/* none: writes go through the page cache */
#endif

static void
sfc_sink_direct(struct sfc_sink *s, size_t max_write)
{
	int flags = fcntl(s->fd, F_GETFL);

	if (O_DIRECT == 0 || !s->can_cut || s->codec->enc_pad == NULL ||
	    flags == -1 || s->base % SFC_DIRECT_ALIGN != 0 ||
	    posix_memalign((void **)&s->direct, SFC_DIRECT_ALIGN,
	    max_write + 3 * SFC_DIRECT_ALIGN) != 0)
		return;
	s->direct_room = max_write;
	if (fcntl(s->fd, F_SETFL, flags | O_DIRECT) == -1) {
		free(s->direct);
		s->direct = NULL;
	}
}

/* All of p, counted, or -1 with errno set. */
static int
sfc_sink_write(struct sfc_sink *s, const u_char *p, size_t len)
{
	size_t tail = (size_t)(s->out_bytes % SFC_DIRECT_ALIGN);
	size_t n = tail + len;
	size_t pad = (SFC_DIRECT_ALIGN - n % SFC_DIRECT_ALIGN) %
	    SFC_DIRECT_ALIGN;
	off_t at = (off_t)(s->base + (int64_t)(s->out_bytes - tail));

	if (s->direct != NULL && len <= s->direct_room) {
		memcpy(s->direct + tail, p, len);
		/* Too little room for the codec's unit: a page more. */
		if (pad != 0 && s->codec->enc_pad(s->direct + n, pad) == 0)
			pad = s->codec->enc_pad(s->direct + n,
			    pad + SFC_DIRECT_ALIGN);
		if (lseek(s->fd, at, SEEK_SET) == at &&
		    sfc_write_all(s->fd, s->direct, n + pad) == 0) {
			memmove(s->direct, s->direct + n - n % SFC_DIRECT_ALIGN,
			    n % SFC_DIRECT_ALIGN);
			goto written;
		}
		if (errno != EINVAL)
			return (-1);
	}
	if (s->direct != NULL) {
		/* Too large, or the file system takes no O_DIRECT write. */
		free(s->direct);
		s->direct = NULL;
		at += (off_t)tail;
		if (fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) & ~O_DIRECT) ==
		    -1 || ftruncate(s->fd, at) != 0 ||
		    lseek(s->fd, at, SEEK_SET) != at)
			return (-1);
	}
	if (sfc_write_all(s->fd, p, len) == -1)
		return (-1);
written:
	SFC_STORE(s->out_bytes, s->out_bytes + (uint64_t)len);
	return (0);
}

static void
sfc_sink_write_failed(struct sfc_sink *s, int err)
{
	sfc_sink_fail(s, err, 1, s->codec->compresses ?
	    "error writing compressed savefile" : "error writing savefile");
}

#ifdef EDQUOT
#define	SFC_NO_SPACE(err)	((err) == ENOSPC || (err) == EDQUOT)
#else
#define	SFC_NO_SPACE(err)	((err) == ENOSPC)
#endif

/* After no space, cut the file back to good, which ends at a block; 0/-1. */
static int
sfc_sink_cut(struct sfc_sink *s, uint64_t good)
{
	off_t end = (off_t)(s->base + (int64_t)good);

	if (!s->can_cut || ftruncate(s->fd, end) != 0 ||
	    lseek(s->fd, end, SEEK_SET) != end)
		return (-1);
	SFC_STORE(s->out_bytes, good);
	return (0);
}

/*
 * Writing block b failed after good bytes.  Out of space, 1: b is lost and
 * the file cut back to a whole block, but the first, the file header that
 * the rest needs, is kept to go out first.  Other errors are sticky, -1.
 */
static int
sfc_sink_lost(struct sfc_sink *s, const struct pcapint_sfc_block *b,
    uint64_t good)
{
	int err = errno;
	int keep = s->blocks == 0 && !s->first_kept;

	if (!SFC_NO_SPACE(err) || sfc_sink_cut(s, good) != 0 ||
	    (keep && (b->records != 0 ||
	    (size_t)b->out_len > sizeof(s->hdr) - s->hdr_len))) {
		sfc_sink_write_failed(s, err);
		return (-1);
	}
	if (keep) {
		memcpy(s->hdr + s->hdr_len, b->res, (size_t)b->out_len);
		s->hdr_len += (size_t)b->out_len;
		s->first_kept = 1;
	}
	SFC_STORE(s->records_lost, s->records_lost + b->records);
	/*
	 * The error, then the count with release: a reader that sees a stop
	 * sees its error too, unless writing resumed since.
	 */
	if (s->space_error == 0) {
		SFC_STORE(s->space_error, err);
		__atomic_store_n(&s->space_stops, s->space_stops + 1,
		    __ATOMIC_RELEASE);
	}
	return (1);
}

/* The file's start goes first, and stays when later blocks are lost; 0/-1. */
static int
sfc_sink_head(struct sfc_sink *s)
{
	if (s->hdr_len == 0)
		return (0);
	if (sfc_sink_write(s, s->hdr, s->hdr_len) == -1)
		return (-1);
	s->hdr_len = 0;
	SFC_STORE(s->blocks, s->blocks + (uint64_t)s->first_kept);
	s->first_kept = 0;
	return (0);
}

/* Write and count a block: 0 (*write_ns set), 1 if lost for space, or -1. */
static int
sfc_sink_block(struct sfc_sink *s,
    const struct pcapint_sfc_block *b, uint64_t *write_ns)
{
	uint64_t good = s->out_bytes, start;

	if (SFC_LOAD(s->err) != 0)
		return (-1);
	if (b->out_len < 0) {
		char what[PCAP_ERRBUF_SIZE];

		snprintf(what, sizeof(what), "%s compression failed: %.200s",
		    SFC_ENCODER_NAME(s->codec), b->ebuf);
		sfc_sink_fail(s, EIO, 0, what);
		return (-1);
	}
	if (sfc_sink_head(s) == -1)
		return (sfc_sink_lost(s, b, good));
	good = s->out_bytes;
	start = sfc_clock_ns(CLOCK_MONOTONIC);
	if (sfc_sink_write(s, b->res, (size_t)b->out_len) == -1)
		return (sfc_sink_lost(s, b, good));
	*write_ns = sfc_clock_ns(CLOCK_MONOTONIC) - start;
	SFC_STORE(s->space_error, 0);
	/* Storing without a codec is not a codec giving up. */
	if (b->stored && s->codec->compresses)
		SFC_STORE(s->blocks_stored, s->blocks_stored + 1);
	SFC_STORE(s->blocks, s->blocks + 1);
	SFC_STORE(s->records, s->records + b->records);
	return (0);
}

/* The stages composed: a full block goes through them on this thread. */
struct sfc_pipeline {
	struct sfc_assembler assembler;
	struct pcapint_sfc_planner planner;	/* its codec is the dumper's */
	struct sfc_sink sink;
	struct pcapint_sfc_block blk;	/* the codec's, on this thread */
	/* The writer thread's load, for the level that adapts; or NULL. */
	void	(*load)(void *ctx, struct pcapint_sfc_adapt_sample *);
	void	*load_ctx;
};

/* A block to the sink, then to the planner, in the order planned. */
static int
sfc_pipeline_write(struct sfc_pipeline *pl, const struct pcapint_sfc_block *b)
{
	struct pcapint_sfc_adapt_sample load;
	uint64_t write_ns = 0;
	int ret;

	if ((ret = sfc_sink_block(&pl->sink, b, &write_ns)) == -1)
		return (-1);
	pcapint_sfc_planner_learn(&pl->planner, b);
	/* A block lost for lack of space took no time the disk would take. */
	if (ret == 1)
		return (0);
	memset(&load, 0, sizeof(load));
	if (pl->load != NULL)
		pl->load(pl->load_ctx, &load);
	pcapint_sfc_planner_measure(&pl->planner, b, write_ns, &load);
	return (0);
}

/* The assembler's block_full: plan, compress and write, here and now. */
static int
sfc_pipeline_block_full(void *ctx)
{
	struct sfc_pipeline *pl = ctx;
	struct sfc_assembler *a = &pl->assembler;
	struct pcapint_sfc_block *b = &pl->blk;
	int ret;

	if (SFC_LOAD(pl->sink.err) != 0)
		return (-1);
	b->fill = a->fill;
	b->records = a->records;
	pcapint_sfc_planner_plan(&pl->planner, b);
	pcapint_sfc_block_compress(pl->planner.codec, b);
	ret = sfc_pipeline_write(pl, b);
	sfc_assembler_next(a, a->buf, pl->planner.block_full);
	return (ret);
}

/* Free everything, writing nothing. */
static void
sfc_pipeline_free(struct sfc_pipeline *pl)
{
	if (pl->blk.enc != NULL)
		pl->planner.codec->enc_free(pl->blk.enc);
	free(pl->planner.adapt);
	free(pl->blk.in);
	free(pl->blk.out);
	free(pl->sink.direct);
}

/* Set the stages up, before there is a file; 0, or -1 with all freed. */
static int
sfc_pipeline_open(struct sfc_pipeline *pl,
    const struct pcap_dump_options *opts, int offline, char *errbuf)
{
	struct pcapint_sfc_block *b = &pl->blk;
	struct sfc_sink *s = &pl->sink;

	memset(pl, 0, sizeof(*pl));
	s->fd = -1;	/* no file until sfc_dumper_start() */
	if (pcapint_sfc_planner_init(&pl->planner, opts, offline, errbuf) != 0)
		return (-1);
	if ((b->in = malloc(pl->planner.block_size)) == NULL)
		goto nomem;
	if ((b->enc = opts->codec->enc_create(pl->planner.level,
	    pl->planner.block_size, errbuf)) == NULL)
		goto fail;
	b->warm_level = SFC_COLD_LEVEL;
	b->out_size = opts->codec->enc_bound(b->enc, pl->planner.block_size);
	if (b->out_size != 0 && (b->out = malloc(b->out_size)) == NULL)
		goto nomem;
	s->codec = opts->codec;
#ifdef HAVE_LIBLZO2
	/* The header goes out with the first block, so errors are sticky. */
	if (opts->codec == &pcapint_sfc_lzo_encoder)
		s->hdr_len = pcapint_sfc_lzo_header(s->hdr);
#endif
	pl->assembler.full = pl->planner.block_full;
	sfc_assembler_redirect(&pl->assembler, b->in, sfc_pipeline_block_full,
	    pl);
	return (0);

nomem:
	pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, errno, "malloc");
fail:
	sfc_pipeline_free(pl);
	return (-1);
}

#ifdef HAVE_PTHREADS

/*
 * Helpers compress blocks on other CPUs: the writer thread queues block n
 * in slot n % SFC_JOBS_SLOTS, helpers take the oldest, and the writer
 * write()s blocks in order, helping while it waits.  So block n is queued
 * once block n - SFC_JOBS_SLOTS, which the planner's skip uses, is on
 * disk: the file is the same with or without helpers.  One mutex guards
 * the slots' states, the queue and stop, and orders slot contents between
 * threads.  Helpers inherit the writer's signal mask, affinity and nice.
 */
#define	SFC_JOBS_SLOTS		SFC_SKIP_LAG
#define	SFC_JOBS_MAX_HELPERS	(SFC_JOBS_SLOTS - 1)

enum {
	SLOT_FREE,	/* the writer thread's */
	SLOT_QUEUED,	/* submitted, waiting for a thread */
	SLOT_RUNNING,	/* being compressed */
	SLOT_DONE	/* compressed, until the writer takes it back */
};

struct sfc_jobs {
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

/* Under the lock: compress the oldest queued block; 0 if there is none. */
static int
jobs_run(struct sfc_jobs *j)
{
	int i, best = -1;

	for (i = 0; i < SFC_JOBS_SLOTS; i++)
		if (j->state[i] == SLOT_QUEUED &&
		    (best == -1 || j->seq[i] < j->seq[best]))
			best = i;
	if (best == -1)
		return (0);
	j->state[best] = SLOT_RUNNING;
	pthread_mutex_unlock(&j->lock);
	pcapint_sfc_block_compress(j->codec, &j->slot[best]);
	pthread_mutex_lock(&j->lock);
	j->state[best] = SLOT_DONE;
	pthread_cond_broadcast(&j->done);
	return (1);
}

static void *
jobs_helper(void *arg)
{
	struct sfc_jobs *j = arg;

	pcapint_writer_set_name("pcap-compress");
	pthread_mutex_lock(&j->lock);
	while (!j->stop)
		if (!jobs_run(j))
			pthread_cond_wait(&j->work, &j->lock);
	pthread_mutex_unlock(&j->lock);
	return (NULL);
}

/* Stop and join the helpers and free everything, queued blocks too. */
static void
sfc_jobs_stop(struct sfc_jobs *j)
{
	u_int i;

	pthread_mutex_lock(&j->lock);
	j->stop = 1;
	pthread_cond_broadcast(&j->work);
	pthread_mutex_unlock(&j->lock);
	for (i = 0; i < j->nhelpers; i++)
		pthread_join(j->helper[i], NULL);
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

/* The slots and nhelpers helpers; NULL on failure (only speed is lost). */
static struct sfc_jobs *
sfc_jobs_start(const struct pcapint_sfc_encoder *codec, int level,
    size_t block_size, u_int nhelpers, char *errbuf)
{
	struct sfc_jobs *j;
	struct pcapint_sfc_block *b;
	int i;

	if (nhelpers > SFC_JOBS_MAX_HELPERS)
		nhelpers = SFC_JOBS_MAX_HELPERS;
	if ((j = calloc(1, sizeof(*j))) == NULL)
		return (NULL);
	j->codec = codec;
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->work, NULL);
	pthread_cond_init(&j->done, NULL);
	for (i = 0; i < SFC_JOBS_SLOTS; i++) {
		b = &j->slot[i];
		b->enc = codec->enc_create(level, block_size, errbuf);
		if (b->enc == NULL)
			goto fail;
		b->warm_level = SFC_COLD_LEVEL;
		b->out_size = codec->enc_bound(b->enc, block_size);
		b->in = malloc(block_size);
		b->out = malloc(b->out_size);
		if (b->in == NULL || b->out == NULL)
			goto fail;
	}
	for (j->nhelpers = 0; j->nhelpers < nhelpers; j->nhelpers++)
		if (pthread_create(&j->helper[j->nhelpers], NULL, jobs_helper,
		    j) != 0)
			goto fail;
	return (j);

fail:
	sfc_jobs_stop(j);
	return (NULL);
}

/*
 * The writer thread's glue.  Copying a savefile waits for room, so the
 * ring holds the largest record; always full then, larger costs faults.
 */
#define	SFC_MIN_BLOCKING_RING	(MAXIMUM_SNAPLEN + PCAP_REC_HDR_LEN)
#define	SFC_MAX_BLOCKING_RING	(4 * 1024 * 1024)

struct sfc_thr {
	struct pcapint_writer *writer;
	struct sfc_pipeline *pl;	/* the writer thread's */
	/* Assembles records fwrite() in parts: dropped whole, never torn. */
	struct sfc_assembler stage;
	int	oversized;	/* the record is larger than the stage */
	uint64_t too_big;	/* such records, dropped */
	/* The compression helpers; the assembler fills slot job_next. */
	struct sfc_jobs *jobs;
	int	jobs_tried;
	u_int	jobs_cpus;	/* CPUs the writer and its helpers may use */
	uint64_t job_next;	/* blocks submitted */
	uint64_t job_written;	/* ... of them written (or dropped) */
	/* Copying a savefile: the opener's CPU clock, as pcap_dump()'s. */
	int	have_producer_clock;
	clockid_t producer_clock;
	uint64_t producer_last;	/* its CPU time at the last sample, ns */
};

/* In order, write the blocks queued before upto, helping, then any ready. */
static void
sfc_jobs_collect(struct sfc_thr *t, uint64_t upto)
{
	struct sfc_jobs *j = t->jobs;
	int i, done;

	while (t->job_written < t->job_next) {
		i = (int)(t->job_written % SFC_JOBS_SLOTS);
		pthread_mutex_lock(&j->lock);
		/* Help rather than wait, oldest first. */
		while (j->state[i] != SLOT_DONE && t->job_written < upto)
			if (!jobs_run(j))
				pthread_cond_wait(&j->done, &j->lock);
		if ((done = j->state[i] == SLOT_DONE))
			j->state[i] = SLOT_FREE;
		pthread_mutex_unlock(&j->lock);
		if (!done)
			break;
		(void)sfc_pipeline_write(t->pl, &j->slot[i]);
		t->job_written++;
	}
}

/* block_full with helpers: plan, queue, and fill the next free slot. */
static int
sfc_jobs_block_full(void *ctx)
{
	struct sfc_thr *t = ctx;
	struct sfc_pipeline *pl = t->pl;
	struct sfc_assembler *a = &pl->assembler;
	struct sfc_jobs *j = t->jobs;
	int i = (int)(t->job_next % SFC_JOBS_SLOTS);
	struct pcapint_sfc_block *b = &j->slot[i];

	if (SFC_LOAD(pl->sink.err) != 0)
		return (-1);
	b->fill = a->fill;
	b->records = a->records;
	pcapint_sfc_planner_plan(&pl->planner, b);
	/* Storing is one copy, cheaper here, while the block is in cache. */
	if (!b->try_codec)
		pcapint_sfc_block_compress(j->codec, b);
	pthread_mutex_lock(&j->lock);
	j->seq[i] = t->job_next++;
	j->state[i] = b->try_codec ? SLOT_QUEUED : SLOT_DONE;
	if (b->try_codec)
		pthread_cond_signal(&j->work);
	pthread_mutex_unlock(&j->lock);
	sfc_jobs_collect(t, t->job_next >= SFC_JOBS_SLOTS ?
	    t->job_next - SFC_JOBS_SLOTS + 1 : 0);
	sfc_assembler_next(a, j->slot[t->job_next % SFC_JOBS_SLOTS].in,
	    pl->planner.block_full);
	return (SFC_LOAD(pl->sink.err) != 0 ? -1 : 0);
}

/* At the first records; without helpers, the writer thread compresses. */
static void
sfc_jobs_begin(struct sfc_thr *t)
{
	struct sfc_pipeline *pl = t->pl;
	char ebuf[PCAP_ERRBUF_SIZE];
	long n;
#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
	cpu_set_t cpus;
#endif

	t->jobs_tried = 1;
	if (!pl->planner.codec->compresses)
		return;
	/* The CPUs this thread may run on, which helpers inherit. */
	n = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
	if (pthread_getaffinity_np(pthread_self(), sizeof(cpus), &cpus) == 0 &&
	    CPU_COUNT(&cpus) < n)
		n = CPU_COUNT(&cpus);
#endif
	/* A helper per other CPU; on one CPU, one to work during write(). */
	t->jobs_cpus = n > 1 ? (u_int)n : 1;
	t->jobs = sfc_jobs_start(pl->planner.codec, pl->planner.level,
	    pl->planner.block_size, n > 1 ? (u_int)n - 1 : 1, ebuf);
	/* The file header, or whatever is in the block, moves over. */
	if (t->jobs != NULL)
		sfc_assembler_redirect(&pl->assembler, t->jobs->slot[0].in,
		    sfc_jobs_block_full, t);
}

/* The application's side: no system call, lock or allocation. */
static int
sfc_stage_full(void *ctx)
{
	struct sfc_thr *t = ctx;

	t->oversized = 1;
	sfc_assembler_next(&t->stage, t->stage.buf, t->stage.full);
	return (0);
}

static void
sfc_stage_record_end(void *ctx)
{
	struct sfc_thr *t = ctx;

	if (t->oversized)
		t->too_big++;
	else
		(void)pcapint_writer_put(t->writer, t->stage.buf,
		    t->stage.fill, NULL, 0);
	t->oversized = 0;
	sfc_assembler_next(&t->stage, t->stage.buf, t->stage.full);
}

static void
sfc_thr_write(struct sfc_thr *t, const u_char *p, size_t len)
{
	sfc_assemble(&t->stage, p, len);
}

static int
sfc_thr_record(struct sfc_thr *t, const void *hdr,
    const u_char *data, bpf_u_int32 caplen)
{
	/* Part of a record was fwrite(): take the long way. */
	if (t->stage.hdr_fill != 0 || t->stage.body != 0)
		return (-1);
	(void)pcapint_writer_put_record(t->writer, hdr, data, caplen);
	return (0);
}

/* The writer thread's side: the same stages as without a thread. */
static int
sfc_thr_consume(void *ctx, const unsigned char *buf, size_t len)
{
	struct sfc_thr *t = ctx;

	if (!t->jobs_tried)
		sfc_jobs_begin(t);
	sfc_assemble(&t->pl->assembler, buf, len);
	return (SFC_LOAD(t->pl->sink.err));
}

static int
sfc_thr_writer_flush(void *ctx)
{
	struct sfc_thr *t = ctx;

	(void)sfc_assembler_flush(&t->pl->assembler);
	/* Everything handed over is on disk once this returns. */
	if (t->jobs != NULL)
		sfc_jobs_collect(t, t->job_next);
	return (SFC_LOAD(t->pl->sink.err));
}

static const struct pcapint_writer_ops sfc_thr_ops = {
	sfc_thr_consume, sfc_thr_writer_flush
};

/* The planner's view of the writer's load, on the writer thread. */
static void
sfc_thr_load(void *ctx, struct pcapint_sfc_adapt_sample *load)
{
	struct sfc_thr *t = ctx;
	uint64_t now;

	load->backlog = pcapint_writer_backlog(t->writer);
	load->ring_size = pcapint_writer_ring_size(t->writer);
	load->threads = 1 + (t->jobs != NULL ? t->jobs->nhelpers : 0);
	load->cpus = t->jobs != NULL ? t->jobs_cpus : 1;
	/* The producer's CPU time since the last call; its clock may go. */
	if (!t->have_producer_clock)
		return;
	if ((now = sfc_clock_ns(t->producer_clock)) == 0) {
		t->have_producer_clock = 0;
		return;
	}
	load->producer_ns = t->producer_last != 0 && now > t->producer_last ?
	    now - t->producer_last : 0;
	t->producer_last = now;
}

/*
 * Start the writer thread if asked for, once the file header is in the
 * first block (the ring carries only records) and before there is a file
 * (untouched if it cannot start).  It owns pl from then on, but reaches
 * the sink, given its file first, only to flush or write a block.
 */
static int
sfc_thr_start(struct sfc_thr **tp,
    struct sfc_pipeline *pl, pcap_t *p, const struct pcap_dump_options *opts)
{
	struct pcapint_writer_params params = { .ring_size = opts->ring_size,
	    .cpu = opts->cpu, .nice_incr = opts->nice_incr };
	size_t stage_size = PCAP_REC_HDR_LEN + MAXIMUM_SNAPLEN;
	struct sfc_thr *t;

	if (opts->ring_size == 0)
		return (0);
	/* Copying a savefile: wait for room, as a record dropped is lost. */
	if (p->rfile != NULL) {
		params.blocking = 1;
		if (params.ring_size < SFC_MIN_BLOCKING_RING)
			params.ring_size = SFC_MIN_BLOCKING_RING;
		if (params.ring_size > SFC_MAX_BLOCKING_RING)
			params.ring_size = SFC_MAX_BLOCKING_RING;
	}
	/* The stage's buffer follows the structure. */
	t = pcapint_sfc_calloc(sizeof(*t) + stage_size, p->errbuf);
	if (t == NULL)
		return (-1);
	t->pl = pl;
#if defined(_POSIX_THREAD_CPUTIME) && _POSIX_THREAD_CPUTIME >= 0
	if (params.blocking)
		t->have_producer_clock =
		    pthread_getcpuclockid(pthread_self(), &t->producer_clock) == 0;
#endif
	sfc_assembler_redirect(&t->stage, (u_char *)(t + 1), sfc_stage_full, t);
	t->stage.full = stage_size;
	t->stage.in_bytes = PCAP_FILE_HDR_LEN;	/* the header went to pl */
	t->stage.record_end = sfc_stage_record_end;
	/* Set before the thread starts, which may ask for it at once. */
	pl->load = sfc_thr_load;
	pl->load_ctx = t;
	t->writer = pcapint_writer_start(&params, &sfc_thr_ops, t, p->errbuf);
	if (t->writer == NULL) {
		pl->load = NULL;
		free(t);
		return (-1);
	}
	*tp = t;
	return (0);
}

/* The writer's error, 0 or -1; a stalled savefile given up on is sticky. */
static int
sfc_thr_error(struct sfc_thr *t, int err)
{
	if (err == ETIMEDOUT)
		sfc_sink_fail(&t->pl->sink, ETIMEDOUT, 0,
		    "the savefile took no data for 10 seconds (a stalled disk or pipe); given up");
	return (err != 0 ? -1 : 0);
}

static int
sfc_thr_flush(struct sfc_thr *t)
{
	return (sfc_thr_error(t, pcapint_writer_flush(t->writer)));
}

/* The stream handed over: the file header, then what went into the ring. */
static uint64_t
sfc_thr_bytes_in(struct sfc_thr *t)
{
	return (PCAP_FILE_HDR_LEN + pcapint_writer_bytes_in(t->writer));
}

/* Records dropped (ring full, too large) are counted on this side. */
static void
sfc_thr_stats(struct sfc_thr *t, struct pcap_dump_stats *s)
{
	struct pcapint_writer_stats ws;

	pcapint_writer_get_stats(t->writer, &ws);
	s->records_dropped = ws.dropped_full + t->too_big;
	s->records = ws.records_in + ws.dropped_error + s->records_dropped;
	s->bytes_in = PCAP_FILE_HDR_LEN + ws.bytes_in;
	s->ring_high_water = ws.high_water;
	s->ring_size = ws.ring_size;
}

/* Drain the ring, join the thread: pl and its own buffer are back in use. */
static void
sfc_thr_stop(struct sfc_thr *t)
{
	struct sfc_pipeline *pl = t->pl;
	struct sfc_assembler *a = &pl->assembler;

	(void)sfc_thr_error(t, pcapint_writer_stop(t->writer));
	if (t->jobs != NULL) {
		sfc_jobs_stop(t->jobs);
		sfc_assembler_next(a, pl->blk.in, a->full);
		sfc_assembler_redirect(a, pl->blk.in, sfc_pipeline_block_full,
		    pl);
	}
	t->pl->load = NULL;
	free(t);
}
#else

/* Without pthreads there is no writer thread: a dumper's thr is NULL. */
struct sfc_thr;
#define	sfc_thr_start(tp, pl, p, opts)		(0)
#define	sfc_thr_write(t, p, len)		((void)0)
#define	sfc_thr_record(t, hdr, data, caplen)	(-1)
#define	sfc_thr_flush(t)			(0)
#define	sfc_thr_stats(t, s)			((void)0)
#define	sfc_thr_bytes_in(t)			((uint64_t)0)
#define	sfc_thr_stop(t)				((void)0)
#endif

/*
 * The dumper: an unbuffered cookie stream, as a pcap_dumper_t * must stay a
 * FILE *; pcap_dump() finds it in a registry, to pass records past stdio.
 */
struct sfc_dumper {
	struct sfc_slot *slot;	/* in the registry */
	FILE	*fp;		/* the cookie stream, the dumper handle */
	struct sfc_pipeline pl;
	struct sfc_thr *thr;	/* NULL without a writer thread */
};

/*
 * The registry, from each dumper's FILE * to its state: slots claimed and
 * released atomically, never freed (as many as dumpers ever open at once),
 * so that pcap_dump() finds its dumper with a few loads and no lock.  A
 * slot's dumper is set before its FILE *, which a lookup finds first.
 */
struct sfc_slot {
	struct sfc_slot *next;	/* set before the slot is listed */
	FILE	*fp;		/* NULL while free, SFC_SLOT_CLAIMED while set */
	struct sfc_dumper *d;
};

static struct sfc_slot *sfc_slots;
static char sfc_slot_claimed;
#define	SFC_SLOT_CLAIMED	((FILE *)(void *)&sfc_slot_claimed)

/* 0, or -1 if out of memory. */
static int
sfc_register(struct sfc_dumper *d)
{
	struct sfc_slot *s;
	FILE *none;

	for (s = __atomic_load_n(&sfc_slots, __ATOMIC_ACQUIRE); s != NULL;
	    s = s->next) {
		none = NULL;
		if (__atomic_compare_exchange_n(&s->fp, &none,
		    SFC_SLOT_CLAIMED, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			break;
	}
	if (s == NULL) {
		if ((s = malloc(sizeof(*s))) == NULL)
			return (-1);
		s->fp = SFC_SLOT_CLAIMED;
		s->next = __atomic_load_n(&sfc_slots, __ATOMIC_RELAXED);
		while (!__atomic_compare_exchange_n(&sfc_slots, &s->next, s,
		    0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			continue;
	}
	__atomic_store_n(&s->d, d, __ATOMIC_RELAXED);
	__atomic_store_n(&s->fp, d->fp, __ATOMIC_RELEASE);
	d->slot = s;
	return (0);
}

static struct sfc_dumper *
sfc_lookup(FILE *fp)
{
	struct sfc_slot *s;

	for (s = __atomic_load_n(&sfc_slots, __ATOMIC_ACQUIRE); s != NULL;
	    s = s->next)
		if (__atomic_load_n(&s->fp, __ATOMIC_ACQUIRE) == fp)
			return (__atomic_load_n(&s->d, __ATOMIC_ACQUIRE));
	return (NULL);
}

static ssize_t
sfc_cookie_write(void *cookie, const char *data, size_t size)
{
	struct sfc_dumper *d = cookie;

	if (d->thr != NULL)
		sfc_thr_write(d->thr, (const u_char *)data, size);
	else
		sfc_assemble(&d->pl.assembler, (const u_char *)data, size);
	return ((ssize_t)size);
}

/* pcap_dump() calls it before ferror(), which locks; no cookie fails. */
int
pcapint_dump_compress_record(FILE *fp, const struct pcap_pkthdr *h,
    const u_char *data)
{
	struct sfc_dumper *d;
	bpf_u_int32 hdr[PCAP_REC_HDR_LEN / 4] = { (bpf_u_int32)h->ts.tv_sec,
	    (bpf_u_int32)h->ts.tv_usec, h->caplen, h->len };

	if ((d = sfc_lookup(fp)) == NULL)
		return (-1);
	if (d->thr != NULL)
		return (sfc_thr_record(d->thr, hdr, data, h->caplen));
	return (sfc_assemble_record(&d->pl.assembler, hdr, data, h->caplen));
}

/*
 * ftell() only (pcap_dump_ftell64(), tcpdump -C): uncompressed, the end
 * of the stream handed over, as for any FILE *, so that a size limit holds
 * to the record; compressed, the bytes on disk (the rest's size unknown).
 */
static int
sfc_cookie_seek(void *cookie, SFC_COOKIE_OFF_T *pos, int whence)
{
	struct sfc_dumper *d = cookie;
	uint64_t at;

	if (whence != SEEK_CUR || *pos != 0) {
		errno = ESPIPE;
		return (-1);
	}
	if (d->pl.sink.codec->compresses)
		at = SFC_LOAD(d->pl.sink.out_bytes);
	else if (d->thr != NULL)
		at = sfc_thr_bytes_in(d->thr);
	else
		at = SFC_LOAD(d->pl.assembler.in_bytes);
	*pos = (SFC_COOKIE_OFF_T)(d->pl.sink.base + (int64_t)at);
	return (0);
}

static int
sfc_cookie_close(void *cookie)
{
	struct sfc_dumper *d = cookie;
	struct sfc_sink *s = &d->pl.sink;
#ifdef HAVE_LIBLZO2
	u_char trailer[SFC_MAX_HEADER];
	int err;
#endif
	uint64_t good;
	int ret;

	if (d->slot != NULL)
		__atomic_store_n(&d->slot->fp, NULL, __ATOMIC_RELEASE);
	if (d->thr != NULL)
		sfc_thr_stop(d->thr);
	(void)sfc_assembler_flush(&d->pl.assembler);
	/* A file header kept through a full disk gets a last try. */
	if (s->err == 0 && s->first_kept) {
		good = s->out_bytes;
		if (sfc_sink_head(s) == -1)
			(void)sfc_sink_cut(s, good);
	}
#ifdef HAVE_LIBLZO2
	/* A trailer finding no space is cut as a block is, losing no record. */
	good = s->out_bytes;
	if (s->err == 0 && s->blocks != 0 &&
	    s->codec == &pcapint_sfc_lzo_encoder && sfc_sink_write(s, trailer,
	    pcapint_sfc_lzo_trailer(trailer)) == -1) {
		err = errno;
		if (SFC_NO_SPACE(err))
			(void)sfc_sink_cut(s, good);
		sfc_sink_write_failed(s, err);
	}
#endif
	/* The last pad goes: the file is as a buffered writer leaves it. */
	if (s->direct != NULL)
		(void)ftruncate(s->fd, (off_t)(s->base + (int64_t)s->out_bytes));
	ret = s->err != 0 ? -1 : 0;
	/* Don't close the standard output, which the program may still use. */
	if (s->raw != NULL && s->raw != stdout && fclose(s->raw) == EOF)
		ret = -1;
	sfc_pipeline_free(&d->pl);
	free(d);
	return (ret);
}

#ifndef HAVE_FOPENCOOKIE
/* funopen() takes an int count, and the offset by value. */
static int
sfc_funopen_write(void *cookie, const char *data, int size)
{
	return ((int)sfc_cookie_write(cookie, data, (size_t)size));
}

static off_t
sfc_funopen_seek(void *cookie, off_t offset, int whence)
{
	SFC_COOKIE_OFF_T o = offset;

	return (sfc_cookie_seek(cookie, &o, whence) == -1 ? -1 : o);
}
#endif

/* Close d, and its file if any: with the sticky error set, writing nothing. */
static void
sfc_dumper_discard(struct sfc_dumper *d)
{
	sfc_sink_fail(&d->pl.sink, ECANCELED, 1, "savefile not opened");
	(void)fclose(d->fp);
}

/* A dumper with no file yet: the file header waits in a block; or NULL. */
static struct sfc_dumper *
sfc_dumper_create(pcap_t *p, const pcap_dump_options_t *opts)
{
#ifdef HAVE_FOPENCOOKIE
	static const cookie_io_functions_t fns = {
		NULL, sfc_cookie_write, sfc_cookie_seek, sfc_cookie_close
	};
#endif
	struct sfc_dumper *d;

	if ((d = pcapint_sfc_calloc(sizeof(*d), p->errbuf)) == NULL)
		return (NULL);
	if (sfc_pipeline_open(&d->pl, opts, p->rfile != NULL, p->errbuf) != 0) {
		free(d);
		return (NULL);
	}
#ifdef HAVE_FOPENCOOKIE
	d->fp = fopencookie(d, "w", fns);
#else
	d->fp = funopen(d, NULL, sfc_funopen_write, sfc_funopen_seek,
	    sfc_cookie_close);
#endif
	if (d->fp == NULL) {
		pcapint_fmt_errmsg_for_errno(p->errbuf, PCAP_ERRBUF_SIZE,
		    errno, "cannot open the compressing stream");
		sfc_pipeline_free(&d->pl);
		free(d);
		return (NULL);
	}
	setvbuf(d->fp, NULL, _IONBF, 0);
	/* pcap_dump_fopen() fails only on the link-layer type, leaving fp. */
	if (sfc_register(d) != 0)
		pcapint_fmt_errmsg_for_errno(p->errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
	else if (pcap_dump_fopen(p, d->fp) != NULL &&
	    sfc_thr_start(&d->thr, &d->pl, p, opts) == 0)
		return (d);
	sfc_dumper_discard(d);
	return (NULL);
}

/* Through the writer thread if any: it alone touches the sink meanwhile. */
static int
sfc_dumper_flush(struct sfc_dumper *d)
{
	if (d->thr != NULL)
		return (sfc_thr_flush(d->thr));
	return (sfc_assembler_flush(&d->pl.assembler));
}

/*
 * Give d its file f and write the file header, a block of its own, so that
 * the file has it from its first write() on, even through a full disk.
 * On failure, d is closed, and f with it (not stdout).  untruncated: f
 * lacked O_TRUNC, so that a program killed meanwhile leaves the old file.
 */
static pcap_dumper_t *
sfc_dumper_start(pcap_t *p, struct sfc_dumper *d, FILE *f, int untruncated)
{
	struct sfc_sink *s = &d->pl.sink;
	struct stat st;
	off_t off;

	s->raw = f;
	s->fd = fileno(f);
	s->can_cut = fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode);
	off = lseek(s->fd, 0, SEEK_CUR);
	s->base = off > 0 ? (int64_t)off : 0;
	if (untruncated && s->can_cut && ftruncate(s->fd, 0) != 0) {
		pcapint_fmt_errmsg_for_errno(p->errbuf, PCAP_ERRBUF_SIZE,
		    errno, "can't truncate the savefile");
		sfc_dumper_discard(d);
		return (NULL);
	}
	if (untruncated)
		sfc_sink_direct(s, SFC_MAX_SIZE(d->pl.blk.out_size,
		    sizeof(s->hdr)));
	/* The writer thread has not touched the sink yet: this comes first. */
	(void)sfc_dumper_flush(d);
	return ((pcap_dumper_t *)d->fp);
}

pcap_dumper_t *
pcap_dump_fopen_with_options(pcap_t *p, FILE *f,
    const pcap_dump_options_t *opts)
{
	struct sfc_dumper *d;

	if (f == NULL) {
		snprintf(p->errbuf, PCAP_ERRBUF_SIZE,
		    "Null FILE * pointer provided to pcap_dump_fopen_with_options");
		return (NULL);
	}
	/* No options: a plain dumper, so callers need only one opener. */
	if (opts == NULL)
		return (pcap_dump_fopen(p, f));
	/* The blocks go to f's descriptor, after what f had buffered. */
	if (fflush(f) == EOF)
		pcapint_fmt_errmsg_for_errno(p->errbuf, PCAP_ERRBUF_SIZE,
		    errno, "can't flush the output stream");
	else if ((d = sfc_dumper_create(p, opts)) != NULL)
		return (sfc_dumper_start(p, d, f, 0));
	/* As documented, f is closed on failure (but not stdout). */
	if (f != stdout)
		(void)fclose(f);
	return (NULL);
}

pcap_dumper_t *
pcap_dump_open_with_options(pcap_t *p, const char *fname,
    const pcap_dump_options_t *opts)
{
	struct sfc_dumper *d;
	pcap_dumper_t *pd;
	int created, fd;
	FILE *f;

	if (fname == NULL) {
		snprintf(p->errbuf, PCAP_ERRBUF_SIZE,
		    "A null pointer was supplied as the file name");
		return (NULL);
	}
	if (!p->activated) {
		snprintf(p->errbuf, PCAP_ERRBUF_SIZE,
		    "%s: not-yet-activated pcap_t passed to pcap_dump_open_with_options",
		    fname);
		return (NULL);
	}
	if (opts == NULL)
		return (pcap_dump_open(p, fname));
	if (strcmp(fname, "-") == 0)
		return (pcap_dump_fopen_with_options(p, stdout, opts));
	/* Everything first, so that the file is written as it is created. */
	if ((d = sfc_dumper_create(p, opts)) == NULL)
		return (NULL);
	/* Whether the file is ours to remove if opening fails after all. */
	fd = open(fname, O_WRONLY | O_CREAT | O_EXCL, 0666);
	created = fd != -1;
	if (!created && errno == EEXIST)
		fd = open(fname, O_WRONLY | O_CREAT, 0666);
	f = fd != -1 ? fdopen(fd, "wb") : NULL;
	if (f == NULL) {
		pcapint_fmt_errmsg_for_errno(p->errbuf, PCAP_ERRBUF_SIZE,
		    errno, "%s", fname);
		if (fd != -1)
			(void)close(fd);
		sfc_dumper_discard(d);
		pd = NULL;
	} else
		pd = sfc_dumper_start(p, d, f, 1);
	/* Leave no file behind where there was none. */
	if (pd == NULL && created)
		(void)unlink(fname);
	return (pd);
}

int
pcapint_dump_compress_flush(FILE *fp)
{
	struct sfc_dumper *d;

	if ((d = sfc_lookup(fp)) == NULL)
		return (0);
	return (sfc_dumper_flush(d));
}

int
pcap_dump_get_stats(pcap_dumper_t *pd, struct pcap_dump_stats *st,
    size_t stats_size)
{
	struct pcap_dump_stats s;
	struct sfc_pipeline *pl;
	struct sfc_dumper *d;

	if ((d = sfc_lookup((FILE *)pd)) == NULL || st == NULL)
		return (PCAP_ERROR);
	pl = &d->pl;
	memset(&s, 0, sizeof(s));
	/* Error first: once it is set, the counts below stop moving. */
	s.error = __atomic_load_n(&pl->sink.err, __ATOMIC_ACQUIRE);
	s.records_written = SFC_LOAD(pl->sink.records);
	s.records = SFC_LOAD(pl->assembler.in_records);
	s.bytes_in = SFC_LOAD(pl->assembler.in_bytes);
	s.bytes_out = SFC_LOAD(pl->sink.out_bytes);
	s.blocks = SFC_LOAD(pl->sink.blocks);
	s.blocks_stored = SFC_LOAD(pl->sink.blocks_stored);
	s.records_lost = SFC_LOAD(pl->sink.records_lost);
	s.space_stops = __atomic_load_n(&pl->sink.space_stops,
	    __ATOMIC_ACQUIRE);
	s.space_error = SFC_LOAD(pl->sink.space_error);
	sfc_planner_stats(&pl->planner, &s);
	if (d->thr != NULL)
		sfc_thr_stats(d->thr, &s);
	/* Every record is written, dropped, lost or still on its way. */
	if (s.error != 0)
		s.records_lost = s.records - s.records_dropped -
		    s.records_written;
	memcpy(st, &s, stats_size < sizeof(s) ? stats_size : sizeof(s));
	return (0);
}

const char *
pcap_dump_geterr(pcap_dumper_t *pd)
{
	struct sfc_dumper *d;

	if ((d = sfc_lookup((FILE *)pd)) == NULL ||
	    __atomic_load_n(&d->pl.sink.err, __ATOMIC_ACQUIRE) == 0)
		return (NULL);
	return (d->pl.sink.errmsg);
}
#else /* SFC_DUMPER */

#define	SFC_NO_DUMPER	"compressed savefiles are not supported on this platform"

pcap_dumper_t *
pcap_dump_fopen_with_options(pcap_t *p, FILE *f,
    const pcap_dump_options_t *opts)
{
	if (opts == NULL)
		return (pcap_dump_fopen(p, f));
	snprintf(p->errbuf, PCAP_ERRBUF_SIZE, "%s", SFC_NO_DUMPER);
	/* As documented, f is closed on failure (but not stdout). */
	if (f != NULL && f != stdout)
		(void)fclose(f);
	return (NULL);
}

pcap_dumper_t *
pcap_dump_open_with_options(pcap_t *p, const char *fname,
    const pcap_dump_options_t *opts)
{
	if (opts == NULL)
		return (pcap_dump_open(p, fname));
	snprintf(p->errbuf, PCAP_ERRBUF_SIZE, "%s", SFC_NO_DUMPER);
	return (NULL);
}

int
pcap_dump_get_stats(pcap_dumper_t *d _U_, struct pcap_dump_stats *st _U_,
    size_t stats_size _U_)
{
	return (PCAP_ERROR);
}

const char *
pcap_dump_geterr(pcap_dumper_t *d _U_)
{
	return (NULL);
}
#endif /* SFC_DUMPER */

/* Flush, take figures (*stp NULL if plain) and message, close: for handlers. */
static int
dump_close_report(pcap_dumper_t *d, struct pcap_dump_stats *st,
    const struct pcap_dump_stats **stp, char *msg, size_t msgsize)
{
	const char *e;
	int status;

	/* Once the flush has drained the ring, the figures are final. */
	status = pcap_dump_flush(d) == -1 ? PCAP_ERROR : 0;
	*stp = pcap_dump_get_stats(d, st, sizeof(*st)) == 0 ? st : NULL;
	msg[0] = '\0';
	if ((e = pcap_dump_geterr(d)) != NULL)
		pcapint_strlcpy(msg, e, msgsize);
	pcap_dump_close(d);
	if (status != 0 && msg[0] == '\0')
		snprintf(msg, msgsize, "error flushing the savefile");
	return (status);
}
#if defined(SFC_DUMPER) && defined(HAVE_PTHREADS)

/*
 * Closing in the background: draining may take long, and a program that
 * rotates files (tcpdump -C, -G) must not stall.  One thread serves the
 * queue in order and leaves when it is empty; it blocks all signals but
 * runs handlers with their caller's mask, which tcpdump -z passes on.
 */
struct close_req {
	struct close_req *next;
	pcap_dumper_t	*d;
	pcap_dump_close_handler done;
	void		*user;
	sigset_t	mask;
};

static pthread_mutex_t closer_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t closer_idle = PTHREAD_COND_INITIALIZER;
static struct close_req *closer_head;
static struct close_req **closer_tailp = &closer_head;
static u_int closer_pending;	/* queued or being closed; 0: no thread */

static void *
closer_main(void *arg _U_)
{
	struct pcap_dump_stats st;
	const struct pcap_dump_stats *stp;
	char msg[PCAP_ERRBUF_SIZE];
	struct close_req *r;
	sigset_t all;
	int status;

	sigfillset(&all);
	pthread_mutex_lock(&closer_lock);
	while ((r = closer_head) != NULL) {
		if ((closer_head = r->next) == NULL)
			closer_tailp = &closer_head;
		pthread_mutex_unlock(&closer_lock);
		status = dump_close_report(r->d, &st, &stp, msg, sizeof(msg));
		if (r->done != NULL) {
			pthread_sigmask(SIG_SETMASK, &r->mask, NULL);
			r->done(r->user, status, stp,
			    msg[0] != '\0' ? msg : NULL);
			pthread_sigmask(SIG_SETMASK, &all, NULL);
		}
		free(r);
		pthread_mutex_lock(&closer_lock);
		closer_pending--;
		pthread_cond_broadcast(&closer_idle);
	}
	pthread_mutex_unlock(&closer_lock);
	return (NULL);
}

int
pcap_dump_close_async(pcap_dumper_t *d, pcap_dump_close_handler done,
    void *user, char *errbuf)
{
	struct close_req *r;
	pthread_t t;
	sigset_t all, old;
	int err;

	if (d == NULL)
		return (sfc_error(errbuf, "NULL dumper"));
	if ((r = pcapint_sfc_calloc(sizeof(*r), errbuf)) == NULL)
		return (PCAP_ERROR);
	r->d = d;
	r->done = done;
	r->user = user;
	pthread_sigmask(SIG_SETMASK, NULL, &r->mask);
	pthread_mutex_lock(&closer_lock);
	if (closer_pending == 0) {
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		err = pthread_create(&t, NULL, closer_main, NULL);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (err != 0) {
			pthread_mutex_unlock(&closer_lock);
			free(r);
			pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
			    err, "cannot start the closing thread");
			return (PCAP_ERROR);
		}
		pthread_detach(t);
	}
	*closer_tailp = r;
	closer_tailp = &r->next;
	closer_pending++;
	pthread_mutex_unlock(&closer_lock);
	return (0);
}

u_int
pcap_dump_close_async_wait(u_int max_pending)
{
	u_int n;

	pthread_mutex_lock(&closer_lock);
	while (closer_pending > max_pending)
		pthread_cond_wait(&closer_idle, &closer_lock);
	n = closer_pending;
	pthread_mutex_unlock(&closer_lock);
	return (n);
}
#else

/* Without a writer thread, closing never waits: close at once. */
int
pcap_dump_close_async(pcap_dumper_t *d, pcap_dump_close_handler done,
    void *user, char *errbuf)
{
	struct pcap_dump_stats st;
	const struct pcap_dump_stats *stp;
	char msg[PCAP_ERRBUF_SIZE];
	int status;

	if (d == NULL)
		return (sfc_error(errbuf, "NULL dumper"));
	status = dump_close_report(d, &st, &stp, msg, sizeof(msg));
	if (done != NULL)
		done(user, status, stp, msg[0] != '\0' ? msg : NULL);
	return (0);
}

/* Every dumper handed over is closed already. */
u_int
pcap_dump_close_async_wait(u_int max_pending _U_)
{
	return (0);
}
#endif
