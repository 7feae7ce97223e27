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
 * Compressed savefiles: the dumper.  pcap_dump_open_with_options(3PCAP),
 * the blocks it fills and writes, the registry of open dumpers, flushing,
 * closing and pcap_dump_get_stats(3PCAP).
 *
 * The file is an ordinary pcap byte stream inside a standard container
 * (gzip, LZ4 frame, zstd frame, lzop), so that zcat, lz4, zstd, lzop and
 * Wireshark read it.  The dumper collects the stream in a fixed-size
 * buffer (a "block") and compresses each full block on its own, as one
 * gzip member, one LZ4 or zstd frame, or a run of lzop blocks, with one
 * write() per block.  Blocks end at record boundaries, so a file cut
 * after any block is still a valid savefile.
 *
 * A pcap_dumper_t * must stay a FILE * (applications call
 * pcap_dump_file() and some cast the handle), so the dumper is a
 * fopencookie() stream whose write function fills the block.  The
 * stream is unbuffered, so each fwrite() is one copy into the block.
 * The state behind a stream is found through a small registry when
 * opening, flushing, asking for statistics and closing.  pcap_dump()
 * does not go through stdio at all: it hands each record to
 * pcapint_dump_compress_record(), which finds the state through a
 * one-entry per-thread cache of that registry and copies header and
 * data straight into the block; the two unbuffered fwrite() calls and
 * the cookie call it saves cost more per record than the copy itself.
 *
 * With a writer thread (sf-compress-thread.c), the application's
 * thread only hands whole records to a ring, and the writer thread
 * runs the code here.
 */

#include <config.h>

#include "ftmacros.h"	/* for fopencookie() */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_PTHREADS
#include <pthread.h>
#endif

#include "pcap-int.h"
#include "thread-local.h"
#include "sf-compress-dumper.h"
#ifdef HAVE_PTHREADS
#include "sf-writer.h"
#endif

/*
 * The registry: FILE * of each open compressed dumper -> its state.
 */
#ifdef HAVE_PTHREADS
static pthread_mutex_t sfc_lock = PTHREAD_MUTEX_INITIALIZER;
#define	SFC_LOCK()	pthread_mutex_lock(&sfc_lock)
#define	SFC_UNLOCK()	pthread_mutex_unlock(&sfc_lock)
#else
#define	SFC_LOCK()
#define	SFC_UNLOCK()
#endif

static struct pcapint_sfc_dumper *sfc_dumpers;

/*
 * pcap_dump()'s cache of the registry: the last FILE this thread dumped
 * to and its dumper (NULL for a plain dumper), valid while the
 * registry's generation, bumped by every change, is the one it was
 * looked up in.  Generation 0 means no compressed dumper was ever
 * opened, which keeps plain dumpers from ever taking the lock.
 */
static u_int sfc_generation;
static thread_local FILE *sfc_hot_fp;
static thread_local struct pcapint_sfc_dumper *sfc_hot_w;
static thread_local u_int sfc_hot_gen;

static void
sfc_register(struct pcapint_sfc_dumper *w)
{
	SFC_LOCK();
	w->next = sfc_dumpers;
	sfc_dumpers = w;
	__atomic_add_fetch(&sfc_generation, 1, __ATOMIC_RELEASE);
	SFC_UNLOCK();
}

static void
sfc_unregister(struct pcapint_sfc_dumper *w)
{
	struct pcapint_sfc_dumper **pp;

	SFC_LOCK();
	for (pp = &sfc_dumpers; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	}
	__atomic_add_fetch(&sfc_generation, 1, __ATOMIC_RELEASE);
	SFC_UNLOCK();
}

static struct pcapint_sfc_dumper *
sfc_lookup(FILE *fp)
{
	struct pcapint_sfc_dumper *w;

	SFC_LOCK();
	for (w = sfc_dumpers; w != NULL; w = w->next)
		if (w->fp == fp)
			break;
	SFC_UNLOCK();
	return (w);
}

/*
 * The first error is sticky: the message first, as pcap_dump_geterr()
 * trusts it once err is set.
 */
static void
sfc_set_error(struct pcapint_sfc_dumper *w, int err, const char *what)
{
	if (w->err != 0)
		return;
	if (err == 0)
		err = EIO;
	pcapint_fmt_errmsg_for_errno(w->errmsg, sizeof(w->errmsg), err,
	    "%s", what);
	__atomic_store_n(&w->err, err, __ATOMIC_RELEASE);
}

static int
sfc_write_all(struct pcapint_sfc_dumper *w, const u_char *p, size_t len)
{
	ssize_t n;

	while (len != 0) {
#ifdef HAVE_PTHREADS
		n = pcapint_writer_write_cancellable(w->fd, p, len);
#else
		n = write(w->fd, p, len);
#endif
		if (n < 0) {
			if (errno == EINTR)
				continue;
			sfc_set_error(w, errno,
			    "error writing compressed savefile");
			return (-1);
		}
		p += n;
		len -= (size_t)n;
		SFC_STORE(w->out_bytes, w->out_bytes + (uint64_t)n);
	}
	return (0);
}

/*
 * A block compressed as planned (out_len < 0 if the codec failed, ebuf
 * says why): count it and write it, in block order.
 */
int
pcapint_sfc_block_out(struct pcapint_sfc_dumper *w,
    const struct pcapint_sfc_block *b)
{
	struct timespec start, end;

	if (w->err != 0)
		return (-1);
	if (b->out_len < 0) {
		snprintf(w->errmsg, sizeof(w->errmsg),
		    "%s compression failed: %.200s", w->name, b->ebuf);
		__atomic_store_n(&w->err, EIO, __ATOMIC_RELEASE);
		return (-1);
	}
	if (w->hdr_len != 0) {
		if (sfc_write_all(w, w->hdr, w->hdr_len) == -1)
			return (-1);
		w->hdr_len = 0;
	}
	/*
	 * Storing without a codec is not a codec giving up, and a block
	 * the level controller chose to store tells the skip nothing
	 * about the traffic.
	 */
	if (w->codec->compresses) {
		if (b->stored)
			SFC_STORE(w->blocks_stored, w->blocks_stored + 1);
		w->results[w->blocks % SFC_SKIP_LAG] =
		    b->how == PCAPINT_SFC_ADAPT_STORE_IT ? SFC_BLOCK_UNKNOWN :
		    (u_char)pcapint_sfc_policy_result(b->fill,
		    (size_t)b->out_len, b->stored);
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (sfc_write_all(w, b->res, (size_t)b->out_len) == -1)
		return (-1);
	clock_gettime(CLOCK_MONOTONIC, &end);
	SFC_STORE(w->blocks, w->blocks + 1);
	SFC_STORE(w->rec_written, w->rec_written + b->records);
	pcapint_sfc_level_learn(w, b,
	    SFC_TIMESPEC_NS(end) - SFC_TIMESPEC_NS(start));
	return (0);
}

/*
 * Compress and write the block buffer (with helpers, hand it over).
 */
int
pcapint_sfc_flush_block(struct pcapint_sfc_dumper *w)
{
	struct pcapint_sfc_block b;
	int ret;

	if (w->err != 0)
		return (-1);
	if (w->fill == 0)
		return (0);
	if (w->thr != NULL && pcapint_sfc_thr_submit(w, &ret))
		return (ret);
	b.in = w->buf;
	b.fill = w->fill;
	b.records = w->rec_buffered;
	b.out = w->out;
	b.out_size = w->out_size;
	b.enc = w->enc;
	b.warm_level = w->enc_warm_level;
	pcapint_sfc_level_plan(w, &b);
	pcapint_sfc_compress(w->codec, &b);
	w->enc_warm_level = b.warm_level;
	w->fill = 0;
	if (pcapint_sfc_block_out(w, &b) == -1) {
		w->fill = b.fill;
		return (-1);
	}
	w->rec_buffered = 0;
	return (0);
}

/*
 * The block is full in the middle of a record.  Write the block up to
 * the start of that record and carry the record's first part over, so
 * that every block ends at a record boundary and a file cut after any
 * block is a valid savefile.  A record larger than a block cannot be
 * carried: it spans blocks.
 */
static void
sfc_block_full(struct pcapint_sfc_dumper *w)
{
	size_t keep;
	u_char *old;

	keep = w->fill - w->rec_start;
	if (w->rec_start == 0 || keep == 0) {
		(void)pcapint_sfc_flush_block(w);
		w->fill = 0;		/* even after an error */
	} else {
		/*
		 * With helpers the next block is another slot's; the
		 * one handed over is only read while it is compressed.
		 */
		old = w->buf;
		w->fill = w->rec_start;
		(void)pcapint_sfc_flush_block(w);
		memmove(w->buf, old + w->rec_start, keep);
		w->fill = keep;
	}
	w->rec_start = 0;
}

static void
sfc_put(struct pcapint_sfc_dumper *w, const u_char *p, size_t len)
{
	size_t n;

	while (len != 0 && w->err == 0) {
		/*
		 * At or past: the part of a record carried over into
		 * this block may be longer than a rung's smaller block.
		 */
		if (w->fill >= w->block_full) {
			sfc_block_full(w);
			continue;
		}
		n = w->block_full - w->fill;
		if (n > len)
			n = len;
		memcpy(w->buf + w->fill, p, n);
		w->fill += n;
		p += n;
		len -= n;
	}
}

/*
 * Follow the record structure of the pcap stream, whatever way stdio
 * splits the writes, to keep records whole within blocks and to count
 * them, and after an error the lost ones.  Records are in host byte
 * order, as pcap_dump() writes them.
 */
void
pcapint_sfc_stream_write(struct pcapint_sfc_dumper *w, const u_char *p,
    size_t size)
{
	size_t len, n;
	uint32_t caplen;

	len = size;
	if (w->in_bytes < PCAP_FILE_HDR_LEN) {
		n = PCAP_FILE_HDR_LEN - (size_t)w->in_bytes;
		if (n > len)
			n = len;
		SFC_STORE(w->in_bytes, w->in_bytes + n);
		sfc_put(w, p, n);
		p += n;
		len -= n;
	}
	SFC_STORE(w->in_bytes, w->in_bytes + len);
	while (len != 0) {
		if (w->rec_body != 0) {
			n = len < w->rec_body ? len : (size_t)w->rec_body;
			w->rec_body -= n;
		} else {
			if (w->rec_need == PCAP_REC_HDR_LEN)
				w->rec_start = w->fill;	/* a record begins */
			n = w->rec_need < len ? w->rec_need : len;
			memcpy(w->rec_hdr + PCAP_REC_HDR_LEN - w->rec_need,
			    p, n);
			w->rec_need -= n;
			if (w->rec_need == 0) {
				memcpy(&caplen, w->rec_hdr + 8,
				    sizeof(caplen));
				w->rec_body = caplen;
				w->rec_need = PCAP_REC_HDR_LEN;
			}
		}
		/*
		 * After an error nothing is stored, but records are
		 * still counted, as lost: never report a failure to
		 * stdio, as that would set the error flag of the FILE
		 * and pcap_dump() would then drop every later record
		 * without a trace.
		 */
		sfc_put(w, p, n);
		p += n;
		len -= n;
		if (w->rec_body == 0 && w->rec_need == PCAP_REC_HDR_LEN) {
			SFC_STORE(w->records, w->records + 1);
			w->rec_buffered++;
		}
	}
}

static ssize_t
sfc_cookie_write(void *cookie, const char *data, size_t size)
{
	struct pcapint_sfc_dumper *w = cookie;

	if (w->thr != NULL)
		pcapint_sfc_thr_write(w, (const u_char *)data, size);
	else
		pcapint_sfc_stream_write(w, (const u_char *)data, size);
	return ((ssize_t)size);
}

/*
 * One whole record from pcap_dump(), at a record boundary: the
 * accounting of pcapint_sfc_stream_write() without following the stream.
 */
static void
sfc_record_write(struct pcapint_sfc_dumper *w, const u_char *hdr,
    const u_char *data, size_t caplen)
{
	SFC_STORE(w->in_bytes, w->in_bytes + PCAP_REC_HDR_LEN + caplen);
	w->rec_start = w->fill;
	sfc_put(w, hdr, PCAP_REC_HDR_LEN);
	sfc_put(w, data, caplen);
	SFC_STORE(w->records, w->records + 1);
	w->rec_buffered++;
}

int
pcapint_dump_compress_record(FILE *fp, const void *hdr, const u_char *data,
    bpf_u_int32 caplen)
{
	struct pcapint_sfc_dumper *w;
	u_int gen;

	gen = __atomic_load_n(&sfc_generation, __ATOMIC_ACQUIRE);
	if (gen == 0)
		return (-1);
	if (fp == sfc_hot_fp && gen == sfc_hot_gen)
		w = sfc_hot_w;
	else {
		w = sfc_lookup(fp);
		sfc_hot_fp = fp;
		sfc_hot_w = w;
		sfc_hot_gen = gen;
	}
	if (w == NULL)
		return (-1);
	if (w->thr != NULL)
		return (pcapint_sfc_thr_record(w, hdr, data, caplen));
	if (w->in_bytes < PCAP_FILE_HDR_LEN || w->rec_body != 0 ||
	    w->rec_need != PCAP_REC_HDR_LEN)
		return (-1);
	sfc_record_write(w, hdr, data, caplen);
	return (0);
}

/*
 * ftell() on the dumper, which is how pcap_dump_ftell64() and tcpdump's
 * -C find the file size: report the bytes on disk.  Nothing else can
 * seek in a compressed stream.
 */
static int
sfc_cookie_seek(void *cookie, off64_t *pos, int whence)
{
	struct pcapint_sfc_dumper *w = cookie;

	if (whence != SEEK_CUR || *pos != 0) {
		errno = ESPIPE;
		return (-1);
	}
	*pos = (off64_t)(w->base + (int64_t)SFC_LOAD(w->out_bytes));
	return (0);
}

static void
sfc_dumper_free(struct pcapint_sfc_dumper *w)
{
	if (w->enc != NULL)
		w->codec->enc_free(w->enc);
	pcapint_sfc_level_free(w);
	free(w->buf);
	free(w->out);
	free(w);
}

static int
sfc_cookie_close(void *cookie)
{
	struct pcapint_sfc_dumper *w = cookie;
	u_char trailer[SFC_MAX_HEADER];
	size_t n;
	int ret;

	sfc_unregister(w);
	/*
	 * Drain the ring, write the partial block and join the thread;
	 * from then on this thread owns everything again.
	 */
	if (w->thr != NULL)
		pcapint_sfc_thr_stop(w);
	(void)pcapint_sfc_flush_block(w);
	if (w->err == 0 && w->blocks != 0) {
		n = w->codec->enc_trailer(w->enc, trailer);
		if (n != 0)
			(void)sfc_write_all(w, trailer, n);
	}
	ret = w->err != 0 ? -1 : 0;
	/*
	 * Don't close the standard output, which the program may still
	 * use (libpcap's master branch stopped doing so for plain
	 * dumpers in 2024).
	 */
	if (w->raw != stdout) {
		if (fclose(w->raw) == EOF && ret == 0)
			ret = -1;
	}
	sfc_dumper_free(w);
	return (ret);
}

pcap_dumper_t *
pcap_dump_fopen_with_options(pcap_t *p, FILE *f,
    const pcap_dump_options_t *opts)
{
	static const cookie_io_functions_t fns = {
		NULL, sfc_cookie_write, sfc_cookie_seek, sfc_cookie_close
	};
	struct pcapint_sfc_dumper *w;
	off_t off;
	pcap_dumper_t *d;

	if (f == NULL) {
		snprintf(p->errbuf, PCAP_ERRBUF_SIZE,
		    "Null FILE * pointer provided to pcap_dump_fopen_with_options");
		return (NULL);
	}
	/* No options: a plain dumper, so callers need only one opener. */
	if (opts == NULL)
		return (pcap_dump_fopen(p, f));
	w = calloc(1, sizeof(*w));
	if (w == NULL)
		goto nomem;
	w->raw = f;
	w->fd = fileno(f);
	w->rec_need = PCAP_REC_HDR_LEN;
	w->codec = opts->codec;
	w->name = pcapint_sfc_container_of(w->codec)->name;
	/* The level, and with it the block size. */
	if (pcapint_sfc_level_init(w, opts, p->rfile != NULL, p->errbuf) != 0)
		goto fail;
	w->buf = malloc(w->block_size);
	if (w->buf == NULL)
		goto nomem;
	w->enc = w->codec->enc_create(w->level, w->block_size, p->errbuf);
	if (w->enc == NULL)
		goto fail;
	w->enc_warm_level = SFC_COLD_LEVEL;
	/* 0 for "store", which writes the block from where it is. */
	w->out_size = w->codec->enc_bound(w->enc, w->block_size);
	if (w->out_size != 0) {
		w->out = malloc(w->out_size);
		if (w->out == NULL)
			goto nomem;
	}
	/*
	 * Whatever the caller had buffered on f goes out first; from
	 * here on we write to the descriptor, one write() per block.
	 */
	if (fflush(f) == EOF) {
		pcapint_fmt_errmsg_for_errno(p->errbuf, PCAP_ERRBUF_SIZE,
		    errno, "can't flush the output stream");
		goto fail;
	}
	off = lseek(w->fd, 0, SEEK_CUR);
	w->base = off > 0 ? (int64_t)off : 0;
	/*
	 * A stream header (lzop) goes out with the first block, so that
	 * a write error is sticky like any other.
	 */
	w->hdr_len = w->codec->enc_header(w->enc, w->hdr);
	w->fp = fopencookie(w, "w", fns);
	if (w->fp == NULL) {
		pcapint_fmt_errmsg_for_errno(p->errbuf, PCAP_ERRBUF_SIZE,
		    errno, "fopencookie");
		goto fail;
	}
	/*
	 * Unbuffered: every fwrite() of pcap_dump() goes straight into
	 * the block, instead of being copied into a stdio buffer first.
	 */
	setvbuf(w->fp, NULL, _IONBF, 0);
	sfc_register(w);
	/*
	 * pcap_dump_fopen() writes the file header through the cookie,
	 * which cannot fail; it can only refuse the link-layer type, and
	 * then leaves the stream open.  Closing it closes f.
	 */
	d = pcap_dump_fopen(p, w->fp);
	if (d == NULL) {
		(void)fclose(w->fp);
		return (NULL);
	}
	/*
	 * The writer thread starts only now, with the file header in the
	 * block, so that the ring carries nothing but records.
	 */
	if (pcapint_sfc_thr_start(w, p, opts) != 0) {
		/* Leave an empty file: write nothing on close. */
		w->err = ECANCELED;
		(void)fclose(w->fp);
		return (NULL);
	}
	return (d);

nomem:
	pcapint_fmt_errmsg_for_errno(p->errbuf, PCAP_ERRBUF_SIZE, errno,
	    "malloc");
fail:
	/* As documented, f is closed on failure (but not stdout). */
	if (w != NULL)
		sfc_dumper_free(w);
	if (f != stdout)
		(void)fclose(f);
	return (NULL);
}

pcap_dumper_t *
pcap_dump_open_with_options(pcap_t *p, const char *fname,
    const pcap_dump_options_t *opts)
{
	pcap_dumper_t *d;
	struct stat st;
	int existed;
	FILE *f;

	if (!p->activated) {
		snprintf(p->errbuf, PCAP_ERRBUF_SIZE,
		    "%s: not-yet-activated pcap_t passed to pcap_dump_open_with_options",
		    fname);
		return (NULL);
	}
	if (fname == NULL) {
		snprintf(p->errbuf, PCAP_ERRBUF_SIZE,
		    "A null pointer was supplied as the file name");
		return (NULL);
	}
	if (opts == NULL)
		return (pcap_dump_open(p, fname));
	existed = 1;
	if (fname[0] == '-' && fname[1] == '\0')
		f = stdout;
	else {
		existed = stat(fname, &st) == 0;
		f = fopen(fname, "wb");
		if (f == NULL) {
			pcapint_fmt_errmsg_for_errno(p->errbuf,
			    PCAP_ERRBUF_SIZE, errno, "%s", fname);
			return (NULL);
		}
	}
	d = pcap_dump_fopen_with_options(p, f, opts);
	/*
	 * A dumper that cannot start (no memory for its ring, no thread)
	 * leaves no empty file behind where there was none.
	 */
	if (d == NULL && !existed)
		(void)unlink(fname);
	return (d);
}

int
pcapint_dump_compress_flush(FILE *fp)
{
	struct pcapint_sfc_dumper *w;

	w = sfc_lookup(fp);
	if (w == NULL)
		return (0);
	if (w->thr != NULL)
		return (pcapint_sfc_thr_flush(w));
	return (pcapint_sfc_flush_block(w));
}

int
pcap_dump_get_stats(pcap_dumper_t *d, struct pcap_dump_stats *st,
    size_t stats_size)
{
	struct pcap_dump_stats s;
	struct pcapint_sfc_dumper *w;

	w = sfc_lookup((FILE *)d);
	if (w == NULL || st == NULL)
		return (PCAP_ERROR);
	memset(&s, 0, sizeof(s));
	/*
	 * Error first: once it is set, nothing more is written, so the
	 * counts below cannot move on to a state it does not explain.
	 */
	s.error = __atomic_load_n(&w->err, __ATOMIC_ACQUIRE);
	s.records_written = SFC_LOAD(w->rec_written);
	s.records = SFC_LOAD(w->records);
	if (w->thr != NULL)
		pcapint_sfc_thr_stats(w, &s);
	/* Every record is written, dropped, lost or still on its way. */
	if (s.error != 0)
		s.records_lost = s.records - s.records_dropped -
		    s.records_written;
	s.bytes_in = SFC_LOAD(w->in_bytes);
	s.bytes_out = SFC_LOAD(w->out_bytes);
	s.blocks = SFC_LOAD(w->blocks);
	s.blocks_stored = SFC_LOAD(w->blocks_stored);
	pcapint_sfc_level_stats(w, &s);
	memcpy(st, &s, stats_size < sizeof(s) ? stats_size : sizeof(s));
	return (0);
}

const char *
pcap_dump_geterr(pcap_dumper_t *d)
{
	struct pcapint_sfc_dumper *w;

	w = sfc_lookup((FILE *)d);
	if (w == NULL || __atomic_load_n(&w->err, __ATOMIC_ACQUIRE) == 0)
		return (NULL);
	return (w->errmsg);
}
