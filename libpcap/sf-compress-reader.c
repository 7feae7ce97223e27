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
 * Compressed savefiles: reading them back.  pcapint_compressed_check_header(),
 * first in savefile.c's check_headers[], recognises a container by its
 * magic number, wraps the raw FILE in a decompressing fopencookie()
 * stream and runs the pcap and pcapng checks on that, so that
 * pcap_open_offline() and everything after it read compressed files
 * with no change, stdin and pipes included.  It reads what other tools
 * compressed as well (gzip capture.pcap; tcpdump -r capture.pcap.gz).
 *
 * The decompressed stream is handed out one container unit (gzip
 * member, LZ4 or zstd frame, lzop block) at a time, and only once the
 * unit is complete and its checksum matched, so a damaged or cut block
 * is never delivered, in part or whole; the error says what is wrong
 * and at which byte offset of the compressed file.
 *
 * The stream seeks as the file would (sf-compress-seek.c), and reading
 * goes on past a damaged unit where the file can seek
 * (sf-compress-resync.c); the reader's state, which the three share, is
 * in sf-compress-reader.h.
 */

#include <config.h>

#include "ftmacros.h"	/* for fopencookie() */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_PTHREADS
#include <pthread.h>
#endif

#include "pcap-int.h"
#include "sf-pcap.h"
#include "sf-pcapng.h"
#include "sf-compress.h"
#include "sf-compress-reader.h"

/* Input buffer, and the first size of the buffer holding a unit. */
#define	SFC_READ_BUF		65536

#ifdef HAVE_PTHREADS
static pthread_mutex_t sfc_readers_lock = PTHREAD_MUTEX_INITIALIZER;
#define	SFC_LOCK()	pthread_mutex_lock(&sfc_readers_lock)
#define	SFC_UNLOCK()	pthread_mutex_unlock(&sfc_readers_lock)
#else
#define	SFC_LOCK()
#define	SFC_UNLOCK()
#endif

/* Open readers, to find an error message from p->rfile. */
static struct sfc_reader *sfc_readers;

int
pcapint_sfc_fill(struct pcapint_sfc_input *in, size_t want)
{
	size_t keep, n;

	if (in->ioerr != 0)
		return (-1);
	keep = in->len - in->pos;
	if (keep != 0 && in->pos != 0)
		memmove(in->buf, in->buf + in->pos, keep);
	in->off += (int64_t)in->pos;
	in->pos = 0;
	in->len = keep;
	if (in->eof || keep == in->size)
		return ((int)keep);
	if (want == 0)
		want = 1;
	if (want > in->size - keep)
		want = in->size - keep;
	n = fread(in->buf + keep, 1, want, in->raw);
	if (n == 0) {
		if (ferror(in->raw)) {
			in->ioerr = errno != 0 ? errno : EIO;
			return (-1);
		}
		in->eof = 1;
	}
	in->len += n;
	return ((int)in->len);
}

ssize_t
pcapint_sfc_read(struct pcapint_sfc_input *in, void *dst, size_t n)
{
	u_char *d = dst;
	size_t got, k;
	int r;

	got = 0;
	while (got < n) {
		if (in->pos == in->len) {
			r = pcapint_sfc_fill(in, n - got);
			if (r < 0)
				return (-1);
			if (r == 0)
				break;
		}
		k = in->len - in->pos;
		if (k > n - got)
			k = n - got;
		memcpy(d + got, in->buf + in->pos, k);
		in->pos += k;
		got += k;
	}
	return ((ssize_t)got);
}

/*
 * The read loop of a streaming decoder: feed the library what it asks
 * for, unit by unit, until it produces something or a unit ends.  The
 * library's hint never reaches beyond the end of the current unit, so
 * a reader at the end of a pipe gets each whole block as soon as it is
 * written; at a unit's start we ask for the little that says how long
 * its header is.  End of input between units is the clean end of the
 * stream, inside one it is a truncated file.  The state starts with a
 * struct pcapint_sfc_stream.
 */
ssize_t
pcapint_sfc_stream_read(void *state, struct pcapint_sfc_input *in,
    u_char *buf, size_t size, int64_t *unit_off, int *unit_done,
    char *errbuf)
{
	struct pcapint_sfc_stream *s = state;
	size_t srclen, dstlen;
	int r;

	*unit_done = 0;
	for (;;) {
		if (in->pos == in->len) {
			r = pcapint_sfc_fill(in, s->in_unit ? s->hint :
			    s->first_read);
			if (r < 0)
				return (SFC_DEC_IOERR);
			if (r == 0) {
				*unit_off = s->unit_off;
				return (s->in_unit ? SFC_DEC_TRUNCATED : 0);
			}
		}
		if (!s->in_unit) {
			s->unit_off = SFC_INPUT_OFFSET(in);
			if (s->begin != NULL && (*s->begin)(state, errbuf) != 0)
				return (SFC_DEC_CORRUPT);
			s->in_unit = 1;
		}
		*unit_off = s->unit_off;
		srclen = in->len - in->pos;
		dstlen = size;
		r = (*s->step)(state, in->buf + in->pos, &srclen, buf, &dstlen,
		    &s->hint, errbuf);
		in->pos += srclen;
		if (r < 0)
			return (SFC_DEC_CORRUPT);
		if (r == 1) {
			/* Stop here, even with no output: a unit ends. */
			s->in_unit = 0;
			*unit_done = 1;
			return ((ssize_t)dstlen);
		}
		if (dstlen != 0)
			return ((ssize_t)dstlen);
	}
}

/*
 * A decoder's error becomes the reader's sticky error, with a message
 * that says what is wrong, in which container, at which offset.
 */
static ssize_t
sfc_reader_error(struct sfc_reader *r, ssize_t n, const char *ebuf)
{
	switch (n) {

	case SFC_DEC_TRUNCATED:
		r->err = EIO;
		snprintf(r->errmsg, sizeof(r->errmsg),
		    "truncated %s compressed file: it ends inside the block starting at byte offset %lld",
		    r->name, (long long)r->unit_off);
		break;

	case SFC_DEC_CORRUPT:
		r->err = EBADMSG;
		snprintf(r->errmsg, sizeof(r->errmsg),
		    "corrupt %s compressed file: bad block at byte offset %lld: %.150s",
		    r->name, (long long)r->unit_off, ebuf);
		break;

	case SFC_DEC_FAILED:
		r->err = EIO;
		snprintf(r->errmsg, sizeof(r->errmsg),
		    "error reading %s compressed file: %.200s", r->name, ebuf);
		break;

	default:
		r->err = r->in.ioerr != 0 ? r->in.ioerr : EIO;
		pcapint_fmt_errmsg_for_errno(r->errmsg, sizeof(r->errmsg),
		    r->err, "error reading %s compressed file", r->name);
		break;
	}
	errno = r->err;
	return (-1);
}

/*
 * Decompress the next unit into the hold buffer, and only hand it out
 * once it is complete and its checksum matched.  Units larger than
 * SFC_MAX_BLOCK, which other tools write (gzip makes one member of a
 * whole file), are streamed instead, to keep memory bounded; damage
 * there shows up late.
 */
ssize_t
pcapint_sfc_cookie_read(void *cookie, char *buf, size_t size)
{
	struct sfc_reader *r = cookie;
	ssize_t n;
	size_t k, nsize;
	u_char *nhold;
	int done, skip;
	char ebuf[PCAP_ERRBUF_SIZE];

	if (r->past_end)
		return (0);
	while (r->hold_pos == r->hold_len) {
		if (r->err != 0) {
			errno = r->err;
			return (-1);
		}
		ebuf[0] = '\0';
		if (r->streaming) {
			n = r->codec->dec_read(r->dec, &r->in, (u_char *)buf,
			    size, &r->unit_off, &done, ebuf);
			if (n < 0)
				return (sfc_reader_error(r, n, ebuf));
			if (done)
				r->streaming = 0;
			r->upos += n;
			if (n != 0 || !done)
				return (n);
			continue;
		}
		r->hold_pos = r->hold_len = 0;
		r->hold_uoff = r->upos;
		for (;;) {
			if (r->hold_len == r->hold_size) {
				if (r->hold_size >= SFC_MAX_BLOCK) {
					r->streaming = 1;
					break;
				}
				nsize = r->hold_size == 0 ? SFC_READ_BUF :
				    2 * r->hold_size;
				nhold = realloc(r->hold, nsize);
				if (nhold == NULL) {
					r->streaming = 1;
					break;
				}
				r->hold = nhold;
				r->hold_size = nsize;
			}
			n = r->codec->dec_read(r->dec, &r->in,
			    r->hold + r->hold_len, r->hold_size - r->hold_len,
			    &r->unit_off, &done, ebuf);
			if (n < 0) {
				r->hold_len = 0;
				if (n == SFC_DEC_CORRUPT) {
					skip = pcapint_sfc_skip_damaged(r,
					    ebuf);
					if (skip > 0)
						break;	/* the next unit */
					if (skip < 0)
						return (
						    pcapint_sfc_damage_end(r));
				}
				return (sfc_reader_error(r, n, ebuf));
			}
			if (r->hold_len == 0 && (n != 0 || done))
				pcapint_sfc_note_unit(r, r->unit_off,
				    r->hold_uoff);
			r->hold_len += (size_t)n;
			if (done)
				break;
			if (n == 0) {
				/* The end of the stream. */
				if (r->damaged != 0)
					return (pcapint_sfc_damage_end(r));
				return (0);
			}
		}
	}
	k = r->hold_len - r->hold_pos;
	if (k > size)
		k = size;
	memcpy(buf, r->hold + r->hold_pos, k);
	r->hold_pos += k;
	r->upos += k;
	return ((ssize_t)k);
}

static void
sfc_reader_free(struct sfc_reader *r)
{
	if (r->dec != NULL)
		r->codec->dec_free(r->dec);
	free(r->hold);
	free(r->in.buf);
	free(r->units);
	free(r);
}

static int
sfc_cookie_rclose(void *cookie)
{
	struct sfc_reader *r = cookie;
	struct sfc_reader **pp;
	int ret;

	SFC_LOCK();
	for (pp = &sfc_readers; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == r) {
			*pp = r->next;
			break;
		}
	}
	SFC_UNLOCK();
	ret = 0;
	if (r->owns_raw && r->in.raw != stdin)
		ret = fclose(r->in.raw) == EOF ? -1 : 0;
	sfc_reader_free(r);
	return (ret);
}

/*
 * The pcap and pcapng readers turn any read error into "error reading
 * dump file: <strerror>"; put our message, with its offset, in its
 * place.  Only two next_packet routines exist, so each gets its own
 * trampoline and the wrapped routine is found without a lookup per
 * packet; the reader state is only looked for on an error.
 */
#define	SFC_MAX_WRAPPED	2
typedef int (*sfc_next_packet_fn)(pcap_t *, struct pcap_pkthdr *, u_char **);
static sfc_next_packet_fn sfc_wrapped[SFC_MAX_WRAPPED];

static void
sfc_fix_errbuf(pcap_t *p)
{
	struct sfc_reader *r;

	SFC_LOCK();
	for (r = sfc_readers; r != NULL; r = r->next)
		if (r->fp == p->rfile)
			break;
	if (r != NULL && r->err != 0)
		snprintf(p->errbuf, PCAP_ERRBUF_SIZE, "%s", r->errmsg);
	SFC_UNLOCK();
}

static int
sfc_next_packet_0(pcap_t *p, struct pcap_pkthdr *h, u_char **data)
{
	int st;

	st = (*sfc_wrapped[0])(p, h, data);
	if (st == -1)
		sfc_fix_errbuf(p);
	return (st);
}

static int
sfc_next_packet_1(pcap_t *p, struct pcap_pkthdr *h, u_char **data)
{
	int st;

	st = (*sfc_wrapped[1])(p, h, data);
	if (st == -1)
		sfc_fix_errbuf(p);
	return (st);
}

static const sfc_next_packet_fn sfc_trampolines[SFC_MAX_WRAPPED] = {
	sfc_next_packet_0, sfc_next_packet_1
};

static pcap_t *
sfc_open_reader(const struct pcapint_sfc_container *c, const uint8_t *magic,
    FILE *fp, u_int precision, char *errbuf, int *err)
{
	static const cookie_io_functions_t fns = {
		pcapint_sfc_cookie_read, NULL, pcapint_sfc_cookie_seek,
		sfc_cookie_rclose
	};
	struct sfc_reader *r;
	FILE *cfp;
	uint8_t m[4];
	size_t n;
	off_t here;
	pcap_t *p;
	u_int i;

	*err = 1;
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		return (NULL);
	}
	r->codec = c->ops;
	r->name = c->name;
	r->in.raw = fp;
	r->in.size = SFC_READ_BUF;
	r->in.buf = malloc(r->in.size);
	if (r->in.buf == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		sfc_reader_free(r);
		return (NULL);
	}
	/* Push back the magic: stdin and pipes cannot seek. */
	memcpy(r->in.buf, magic, 4);
	r->in.len = 4;
	/* Where the stream starts in fp, for seeks; -1 if fp cannot tell. */
	here = ftello(fp);
	r->raw_base = here >= 4 ? (int64_t)here - 4 : -1;
	/* The first unit starts the file; a reader can always go back. */
	r->end_uoff = -1;
	r->units_size = 64;
	r->units = malloc(r->units_size * sizeof(*r->units));
	if (r->units == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		sfc_reader_free(r);
		return (NULL);
	}
	r->units[0].coff = 0;
	r->units[0].uoff = 0;
	r->nunits = 1;
	r->dec = r->codec->dec_create(errbuf);
	if (r->dec == NULL) {
		sfc_reader_free(r);
		return (NULL);
	}
	cfp = fopencookie(r, "r", fns);
	if (cfp == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "fopencookie");
		sfc_reader_free(r);
		return (NULL);
	}
	/*
	 * From here on, closing cfp frees r; until we succeed it must
	 * leave fp alone, as our caller closes that on failure.
	 */
	r->fp = cfp;
	n = fread(m, 1, sizeof(m), cfp);
	if (n != sizeof(m)) {
		if (r->err != 0)
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", r->errmsg);
		else
			snprintf(errbuf, PCAP_ERRBUF_SIZE,
			    "truncated dump file; the %s compressed data holds only %zu bytes",
			    c->name, n);
		goto fail;
	}
	p = pcap_check_header(m, cfp, precision, errbuf, err);
	if (p == NULL && *err == 0)
		p = pcap_ng_check_header(m, cfp, precision, errbuf, err);
	if (p == NULL) {
		if (r->err != 0)
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", r->errmsg);
		else if (*err == 0)
			snprintf(errbuf, PCAP_ERRBUF_SIZE,
			    "%s compressed file does not contain a pcap or pcapng capture",
			    c->name);
		*err = 1;
		goto fail;
	}
	SFC_LOCK();
	for (i = 0; i < SFC_MAX_WRAPPED; i++) {
		if (sfc_wrapped[i] == NULL)
			sfc_wrapped[i] = p->next_packet_op;
		if (sfc_wrapped[i] == p->next_packet_op) {
			p->next_packet_op = sfc_trampolines[i];
			break;
		}
	}
	r->next = sfc_readers;
	sfc_readers = r;
	SFC_UNLOCK();
	r->owns_raw = 1;
	/*
	 * savefile.c keeps an rfile a check routine has set, and takes
	 * selectable_fd from the raw file: a cookie has no descriptor.
	 */
	p->rfile = cfp;
	return (p);

fail:
	(void)fclose(cfp);
	return (NULL);
}

pcap_t *
pcapint_compressed_check_header(const uint8_t *magic, FILE *fp,
    u_int precision, char *errbuf, int *err)
{
	const struct pcapint_sfc_container *c;

	*err = 0;
	c = pcapint_sfc_container_by_magic(magic);
	if (c == NULL)
		return (NULL);
	if (c->ops == NULL)
		return (pcapint_sfc_cannot_read(c, errbuf, err));
	return (sfc_open_reader(c, magic, fp, precision, errbuf, err));
}
