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
 * pcap_dump_fopen_with_options(3PCAP), the registry of open dumpers,
 * flushing, closing, pcap_dump_get_stats(3PCAP) and
 * pcap_dump_geterr(3PCAP).
 *
 * The file is an ordinary pcap byte stream inside a standard container
 * (a gzip member, an LZ4 frame or a zstd frame per block), so that the
 * command-line tools and Wireshark read it.  The dumper collects the
 * stream in a fixed-size buffer (a "block") and compresses each full
 * block on its own, as one self-contained unit of its container, with
 * one write() per block; the stages that do so are in
 * sf-compress-pipeline.h.
 *
 * A pcap_dumper_t * must stay a FILE * (applications call
 * pcap_dump_file() and some cast the handle), so the dumper is a
 * fopencookie() stream whose write function hands the bytes to the
 * first stage.  The stream is unbuffered, so each fwrite() is one copy
 * into the block.  The state behind a stream is found through a small
 * registry when opening, flushing, asking for statistics and closing.
 * pcap_dump() does not go through stdio at all: it hands each record
 * to pcapint_dump_compress_record(), which finds the state through a
 * one-entry per-thread cache of that registry and copies header and
 * data straight into the block; the two unbuffered fwrite() calls and
 * the cookie call it saves cost more per record than the copy itself.
 */
#ifdef SFC_WRITER_THREAD
/*
 * With a writer thread (sf-compress-thread.c), the application's
 * thread only hands whole records to a ring, and the writer thread
 * runs the stages.
 */
#endif

#include <config.h>

#include "ftmacros.h"	/* fopencookie() */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_PTHREADS
#include <pthread.h>
#endif

#include "pcap-int.h"
#include "thread-local.h"
#include "sf-compress-pipeline.h"
#ifdef SFC_WRITER_THREAD
#include "sf-compress-thread.h"
#endif

struct sfc_dumper {
	struct sfc_dumper *next;	/* in the registry */
	FILE	*fp;		/* the cookie stream, the dumper handle */
	struct pcapint_sfc_pipeline pl;
#ifdef SFC_WRITER_THREAD
	struct pcapint_sfc_thr *thr;	/* NULL without a writer thread */
#endif
};

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

static struct sfc_dumper *sfc_dumpers;

/*
 * pcap_dump()'s cache of the registry: the last FILE this thread dumped
 * to and its dumper (NULL for a plain dumper), valid while the
 * registry's generation, bumped by every change, is the one it was
 * looked up in.  Generation 0 means no compressed dumper was ever
 * opened, which keeps plain dumpers from ever taking the lock.
 */
static u_int sfc_generation;
static thread_local FILE *sfc_hot_fp;
static thread_local struct sfc_dumper *sfc_hot_d;
static thread_local u_int sfc_hot_gen;

static void
sfc_register(struct sfc_dumper *d)
{
	SFC_LOCK();
	d->next = sfc_dumpers;
	sfc_dumpers = d;
	__atomic_add_fetch(&sfc_generation, 1, __ATOMIC_RELEASE);
	SFC_UNLOCK();
}

static void
sfc_unregister(struct sfc_dumper *d)
{
	struct sfc_dumper **pp;

	SFC_LOCK();
	for (pp = &sfc_dumpers; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == d) {
			*pp = d->next;
			break;
		}
	}
	__atomic_add_fetch(&sfc_generation, 1, __ATOMIC_RELEASE);
	SFC_UNLOCK();
}

static struct sfc_dumper *
sfc_lookup(FILE *fp)
{
	struct sfc_dumper *d;

	SFC_LOCK();
	for (d = sfc_dumpers; d != NULL; d = d->next)
		if (d->fp == fp)
			break;
	SFC_UNLOCK();
	return (d);
}

static ssize_t
sfc_cookie_write(void *cookie, const char *data, size_t size)
{
	struct sfc_dumper *d = cookie;

#ifdef SFC_WRITER_THREAD
	if (d->thr != NULL) {
		pcapint_sfc_thr_write(d->thr, (const u_char *)data, size);
		return ((ssize_t)size);
	}
#endif
	pcapint_sfc_assemble(&d->pl.assembler, (const u_char *)data, size);
	return ((ssize_t)size);
}

int
pcapint_dump_compress_record(FILE *fp, const void *hdr, const u_char *data,
    bpf_u_int32 caplen)
{
	struct sfc_dumper *d;
	u_int gen;

	gen = __atomic_load_n(&sfc_generation, __ATOMIC_ACQUIRE);
	if (gen == 0)
		return (-1);
	if (fp == sfc_hot_fp && gen == sfc_hot_gen)
		d = sfc_hot_d;
	else {
		d = sfc_lookup(fp);
		sfc_hot_fp = fp;
		sfc_hot_d = d;
		sfc_hot_gen = gen;
	}
	if (d == NULL)
		return (-1);
#ifdef SFC_WRITER_THREAD
	if (d->thr != NULL)
		return (pcapint_sfc_thr_record(d->thr, hdr, data, caplen));
#endif
	return (pcapint_sfc_assemble_record(&d->pl.assembler, hdr, data,
	    caplen));
}

/*
 * ftell() on the dumper, which is how pcap_dump_ftell64() and tcpdump's
 * -C find the file size: report the bytes on disk.  Nothing else can
 * seek in a compressed stream.
 */
static int
sfc_cookie_seek(void *cookie, SFC_COOKIE_OFF_T *pos, int whence)
{
	struct sfc_dumper *d = cookie;

	if (whence != SEEK_CUR || *pos != 0) {
		errno = ESPIPE;
		return (-1);
	}
	*pos = (SFC_COOKIE_OFF_T)pcapint_sfc_sink_tell(&d->pl.sink);
	return (0);
}

static int
sfc_cookie_close(void *cookie)
{
	struct sfc_dumper *d = cookie;
	int ret;

	sfc_unregister(d);
#ifdef SFC_WRITER_THREAD
	/*
	 * Drain the ring and join the thread; from then on this thread
	 * owns everything again.
	 */
	if (d->thr != NULL)
		pcapint_sfc_thr_stop(d->thr);
	d->thr = NULL;
#endif
	ret = pcapint_sfc_pipeline_close(&d->pl);
	free(d);
	return (ret);
}

pcap_dumper_t *
pcap_dump_fopen_with_options(pcap_t *p, FILE *f,
    const pcap_dump_options_t *opts)
{
	static const cookie_io_functions_t fns = {
		NULL, sfc_cookie_write, sfc_cookie_seek, sfc_cookie_close
	};
	struct sfc_dumper *d;
	pcap_dumper_t *pd;

	if (f == NULL) {
		snprintf(p->errbuf, PCAP_ERRBUF_SIZE,
		    "Null FILE * pointer provided to pcap_dump_fopen_with_options");
		return (NULL);
	}
	/* No options: a plain dumper, so callers need only one opener. */
	if (opts == NULL)
		return (pcap_dump_fopen(p, f));
	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		pcapint_fmt_errmsg_for_errno(p->errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		goto fail;
	}
	if (pcapint_sfc_pipeline_open(&d->pl, f, opts, p->rfile != NULL,
	    p->errbuf) != 0) {
		free(d);
		d = NULL;
		goto fail;
	}
	d->fp = fopencookie(d, "w", fns);
	if (d->fp == NULL) {
		pcapint_fmt_errmsg_for_errno(p->errbuf, PCAP_ERRBUF_SIZE,
		    errno, "fopencookie");
		pcapint_sfc_pipeline_free(&d->pl);
		free(d);
		goto fail;
	}
	/*
	 * Unbuffered: every fwrite() of pcap_dump() goes straight into
	 * the block, instead of being copied into a stdio buffer first.
	 */
	setvbuf(d->fp, NULL, _IONBF, 0);
	sfc_register(d);
	/*
	 * pcap_dump_fopen() writes the file header through the cookie,
	 * which cannot fail; it can only refuse the link-layer type, and
	 * then leaves the stream open.  Closing it closes f.
	 */
	pd = pcap_dump_fopen(p, d->fp);
	if (pd == NULL) {
		(void)fclose(d->fp);
		return (NULL);
	}
#ifdef SFC_WRITER_THREAD
	/*
	 * The writer thread starts only now, with the file header in the
	 * block, so that the ring carries nothing but records.
	 */
	if (pcapint_sfc_thr_start(&d->thr, &d->pl, p, opts) != 0) {
		/* Leave an empty file: write nothing on close. */
		pcapint_sfc_sink_give_up(&d->pl.sink, ECANCELED, NULL);
		(void)fclose(d->fp);
		return (NULL);
	}
#endif
	return (pd);

fail:
	/* As documented, f is closed on failure (but not stdout). */
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
	 * A dumper that cannot start leaves no empty file behind where
	 * there was none.
	 */
	if (d == NULL && !existed)
		(void)unlink(fname);
	return (d);
}

int
pcapint_dump_compress_flush(FILE *fp)
{
	struct sfc_dumper *d;

	d = sfc_lookup(fp);
	if (d == NULL)
		return (0);
#ifdef SFC_WRITER_THREAD
	if (d->thr != NULL)
		return (pcapint_sfc_thr_flush(d->thr));
#endif
	return (pcapint_sfc_assembler_flush(&d->pl.assembler));
}

int
pcap_dump_get_stats(pcap_dumper_t *pd, struct pcap_dump_stats *st,
    size_t stats_size)
{
	struct pcap_dump_stats s;
	struct sfc_dumper *d;

	d = sfc_lookup((FILE *)pd);
	if (d == NULL || st == NULL)
		return (PCAP_ERROR);
	memset(&s, 0, sizeof(s));
	pcapint_sfc_pipeline_stats(&d->pl, &s);
#ifdef SFC_WRITER_THREAD
	if (d->thr != NULL)
		pcapint_sfc_thr_stats(d->thr, &s);
	/* Every record is written, dropped, lost or still on its way. */
	if (s.error != 0)
		s.records_lost = s.records - s.records_dropped -
		    s.records_written;
#else
	/* Every record is written, lost or still in the block. */
	if (s.error != 0)
		s.records_lost = s.records - s.records_written;
#endif
	memcpy(st, &s, stats_size < sizeof(s) ? stats_size : sizeof(s));
	return (0);
}

const char *
pcap_dump_geterr(pcap_dumper_t *pd)
{
	struct sfc_dumper *d;

	d = sfc_lookup((FILE *)pd);
	if (d == NULL ||
	    __atomic_load_n(&d->pl.sink.err, __ATOMIC_ACQUIRE) == 0)
		return (NULL);
	return (d->pl.sink.errmsg);
}
