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
 * Reading compressed savefiles: a stream that reads and seeks as the
 * uncompressed file would, pipes included, wraps the raw FILE.  Without
 * fopencookie() or funopen() they are only refused by name, in plain C99.
 */

#include <config.h>

#include "ftmacros.h"	/* fopencookie() */

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "pcap-int.h"
#ifdef SFC_COOKIE_OFF_T
#include "extract.h"
#include "sf-pcap.h"
#include "sf-pcapng.h"
#endif
#include "sf-compress.h"

#ifdef HAVE_ZLIB
#define	SFC_GZIP_DECODER	(&pcapint_sfc_gzip_decoder)
#else
#define	SFC_GZIP_DECODER	NULL
#endif
#ifdef HAVE_LIBLZ4
#define	SFC_LZ4_DECODER	(&pcapint_sfc_lz4_decoder)
#else
#define	SFC_LZ4_DECODER	NULL
#endif
#ifdef HAVE_LIBZSTD
#define	SFC_ZSTD_DECODER	(&pcapint_sfc_zstd_decoder)
#else
#define	SFC_ZSTD_DECODER	NULL
#endif

/* gzip's magic includes the method byte (8, deflate), as gzip(1) checks. */
const struct pcapint_sfc_container pcapint_sfc_containers[SFC_NCONTAINERS] = {
	[SFC_STORE] = { "none", { 0 }, 0, NULL },
	[SFC_ZSTD] = { "zstd", { 0x28, 0xb5, 0x2f, 0xfd }, 4, SFC_ZSTD_DECODER },
	[SFC_LZ4] = { "lz4", { 0x04, 0x22, 0x4d, 0x18 }, 4, SFC_LZ4_DECODER },
	[SFC_GZIP] = { "gzip", { 0x1f, 0x8b, 0x08 }, 3, SFC_GZIP_DECODER },
#ifdef SFC_LZOP_CONTAINER
	/* lzop's signature is 9 bytes; its first 4 tell it from the rest. */
	[SFC_LZO] = { "lzo",
	    { 0x89, 0x4c, 0x5a, 0x4f, 0x00, 0x0d, 0x0a, 0x1a, 0x0a }, 9,
#ifdef HAVE_LIBLZO2
	    &pcapint_sfc_lzo_decoder },
#else
	    NULL },
#endif
#endif
};

#ifdef SFC_COOKIE_OFF_T
/* Read at most want more: fread() on a pipe waits for all it asks. */
static int
sfc_fill(struct pcapint_sfc_input *in, size_t want)
{
	size_t keep, n;

	if (in->ioerr != 0)
		return (-1);
	keep = in->len - in->pos;
	memmove(in->buf, in->buf + in->pos, keep);
	in->off += (int64_t)in->pos;
	in->pos = 0;
	in->len = keep;
	if (in->eof || keep == in->size)
		return ((int)keep);
	want = want == 0 ? 1 : want < in->size - keep ? want : in->size - keep;
	n = fread(in->buf + keep, 1, want, in->raw);
	if (n == 0 && ferror(in->raw)) {
		in->ioerr = errno != 0 ? errno : EIO;
		return (-1);
	}
	in->eof = n == 0;
	in->len += n;
	return ((int)in->len);
}
#ifdef SFC_LZOP_CONTAINER

ptrdiff_t
pcapint_sfc_read(struct pcapint_sfc_input *in, void *dst, size_t n)
{
	size_t got, k;
	int r;

	for (got = 0; got < n; got += k, in->pos += k) {
		if (in->pos == in->len && (r = sfc_fill(in, n - got)) <= 0)
			return (r < 0 ? -1 : (ptrdiff_t)got);
		k = in->len - in->pos < n - got ? in->len - in->pos : n - got;
		memcpy((u_char *)dst + got, in->buf + in->pos, k);
	}
	return ((ptrdiff_t)got);
}
#endif

void *
pcapint_sfc_calloc(size_t size, char *errbuf)
{
	void *p = calloc(1, size);

	if (p == NULL)
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, errno,
		    "malloc");
	return (p);
}

/* A streaming decoder's read loop; the library's hint ends at the unit. */
ptrdiff_t
pcapint_sfc_stream_read(void *state, struct pcapint_sfc_input *in,
    u_char *buf, size_t size, int64_t *unit_off, int *unit_done, char *errbuf)
{
	struct pcapint_sfc_stream *s = state;
	size_t srclen, dstlen;
	int r;

	*unit_done = 0;
	*unit_off = s->unit_off;
	for (;;) {
		if (in->pos == in->len && (r = sfc_fill(in,
		    s->in_unit ? s->hint : s->first_read)) <= 0)
			return (r < 0 ? SFC_DEC_IOERR :
			    s->in_unit ? SFC_DEC_TRUNCATED : 0);
		if (!s->in_unit) {
			/* Padding, as of tape devices; gzip -d skips it. */
			if (s->zero_padding && in->buf[in->pos] == 0) {
				in->pos++;
				continue;
			}
			*unit_off = s->unit_off = SFC_INPUT_OFFSET(in);
			s->in_unit = 1;
		}
		srclen = in->len - in->pos;
		dstlen = size;
		r = (*s->step)(state, in->buf + in->pos, &srclen, buf, &dstlen,
		    &s->hint, errbuf);
		in->pos += srclen;
		if (r < 0)
			return (SFC_DEC_CORRUPT);
		/* A unit's end stops the read, even with no output. */
		s->in_unit = r != 1;
		*unit_done = r == 1;
		if (r == 1 || dstlen != 0)
			return ((ptrdiff_t)dstlen);
	}
}

/* Skipping a damaged unit is right only where units end at records. */
enum { SFC_RECORDS_UNKNOWN, SFC_RECORDS_PCAP, SFC_RECORDS_PCAPNG };
struct sfc_records {
	int	aligned;	/* every unit walked ended at a record's end */
	int	format, big_endian;	/* SFC_RECORDS_*; the lengths' order */
};
#define	SFC_PCAPNG_SHB		0x0A0D0D0AU	/* the same in both orders */
#define	SFC_PCAPNG_BOM		0x1A2B3C4DU
#define	SFC_U32(p, be)	((be) ? EXTRACT_BE_U_4(p) : EXTRACT_LE_U_4(p))
/* Walk a unit; returns whether every unit walked ended at a record. */
static int
sfc_records_walk(struct sfc_records *w, const u_char *buf, size_t len,
    int64_t uoff)
{
	uint64_t pos = 0, reclen;
	uint32_t magic;

	if (uoff == 0 && len >= 4) {
		magic = EXTRACT_BE_U_4(buf);
		if (magic == SFC_PCAPNG_SHB)
			w->format = SFC_RECORDS_PCAPNG;
		else if (magic == 0xA1B2C3D4U || magic == 0xA1B23C4DU ||
		    magic == 0xD4C3B2A1U || magic == 0x4D3CB2A1U) {
			w->format = SFC_RECORDS_PCAP;
			w->big_endian = (magic >> 24) == 0xA1;
			pos = 24;	/* struct pcap_file_header */
		}
	}
	while (w->aligned && w->format != SFC_RECORDS_UNKNOWN && pos < len) {
		if (w->format == SFC_RECORDS_PCAP) {
			/* pcap_sf_pkthdr: caplen after the time stamp */
			if (len - pos < 16)
				break;
			reclen = 16 +
			    (uint64_t)SFC_U32(buf + pos + 8, w->big_endian);
		} else {
			/* type, total length, a section's byte-order magic */
			if (len - pos < 12)
				break;
			if (EXTRACT_BE_U_4(buf + pos) == SFC_PCAPNG_SHB) {
				w->big_endian = EXTRACT_BE_U_4(buf + pos + 8) ==
				    SFC_PCAPNG_BOM;
				if (SFC_U32(buf + pos + 8, w->big_endian) !=
				    SFC_PCAPNG_BOM)
					w->aligned = 0;
			}
			reclen = SFC_U32(buf + pos + 4, w->big_endian);
			if (reclen < 12 || reclen % 4 != 0)
				w->aligned = 0;
		}
		pos += reclen;
	}
	if (pos != len || w->format == SFC_RECORDS_UNKNOWN)
		w->aligned = 0;
	return (w->aligned);
}

/* A unit (block, frame) starts at coff in the file and uoff uncompressed. */
struct sfc_unit_start {
	int64_t	coff, uoff;
};
struct sfc_reader {
	next_packet_op_t next_packet_op;	/* the pcap or pcapng reader's */
	const struct pcapint_sfc_container *c;	/* its decoder, name, magic */
	void	*dec;
	struct pcapint_sfc_input in;
	u_char	*hold;		/* one decompressed unit */
	size_t	hold_size, hold_len, hold_pos;
	int	streaming;	/* unit too large to hold: pass through */
	int	err, truncated;	/* sticky, later reads fail; the file is cut */
	int64_t	unit_off;
	char	errmsg[PCAP_ERRBUF_SIZE];
	int64_t	upos, hold_uoff;	/* next byte handed out's; hold[0]'s */
	int64_t	raw_base;	/* where in raw the stream starts; -1: no seeks */
	int	past_end;	/* a seek went past the end: reads give 0 */
	int64_t	end_uoff;	/* the length of the stream, once known */
	int	table_tried, table_used;	/* units[] is a seek table's */
	struct sfc_unit_start *units;	/* unit starts, ascending */
	size_t	nunits, units_size;
	struct sfc_records records;	/* for sfc_skip_damaged() */
	int	resumed;	/* the unit being read follows a skipped one */
	int64_t	damaged, damaged_last;	/* how many, the last's raw offset */
	char	damage[PCAP_ERRBUF_SIZE];	/* what the first one was */
};

static ptrdiff_t sfc_error(struct sfc_reader *, int,
    PCAP_FORMAT_STRING(const char *), ...) PCAP_PRINTFLIKE(3, 4);

static ptrdiff_t
sfc_error(struct sfc_reader *r, int err, const char *fmt, ...)
{
	va_list ap;

	r->err = err;
	va_start(ap, fmt);
	(void)vsnprintf(r->errmsg, sizeof(r->errmsg), fmt, ap);
	va_end(ap);
	errno = err;
	return (-1);
}

/* How many units start at or before off, in the file if by_coff. */
static size_t
sfc_units_upto(const struct sfc_reader *r, int64_t off, int by_coff)
{
	size_t lo = 0, hi = r->nunits, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((by_coff ? r->units[mid].coff : r->units[mid].uoff) <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

/* A unit read whole must be where the seek table says: seeks trust it. */
static int
sfc_check_unit(struct sfc_reader *r, int64_t end)
{
	size_t lo;

	if (!r->table_used)	/* no search for files without a seek table */
		return (0);
	lo = sfc_units_upto(r, r->unit_off - 1, 1);
	if (lo < r->nunits && r->units[lo].coff == r->unit_off &&
	    r->units[lo].uoff == r->hold_uoff && end == (lo + 1 < r->nunits ?
	    r->units[lo + 1].uoff : r->hold_uoff))
		return (0);
	return ((int)sfc_error(r, EBADMSG,
	    "corrupt %s compressed file: its seek table does not match the block at byte offset %lld",
	    r->c->name, (long long)r->unit_off));
}

/* Note a unit start; without memory, seeks start at an earlier one. */
static void
sfc_note_unit(struct sfc_reader *r, int64_t coff, int64_t uoff)
{
	struct sfc_unit_start *nu;

	if (!r->c->dec->dec_units_independent ||
	    coff <= r->units[r->nunits - 1].coff)
		return;
	if (r->nunits == r->units_size) {
		nu = realloc(r->units, 2 * r->units_size * sizeof(*nu));
		if (nu == NULL)
			return;
		r->units = nu;
		r->units_size *= 2;
	}
	r->units[r->nunits++] = (struct sfc_unit_start){ coff, uoff };
}

/* Start reading again at a unit, with a new decoder; sets errno. */
static int
sfc_restart_at(struct sfc_reader *r, const struct sfc_unit_start *u)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	void *dec;

	if (fseeko(r->in.raw, (off_t)(r->raw_base + u->coff), SEEK_SET) != 0)
		return (-1);
	if ((dec = r->c->dec->dec_create(ebuf)) == NULL) {
		errno = ENOMEM;
		return (-1);
	}
	r->c->dec->dec_free(r->dec);
	r->dec = dec;
	r->in.pos = r->in.len = r->hold_pos = r->hold_len = 0;
	r->in.off = u->coff;
	r->in.eof = r->in.ioerr = 0;
	r->hold_uoff = r->upos = u->uoff;
	r->streaming = r->err = r->truncated = r->past_end = r->resumed = 0;
	return (0);
}

/*
 * Where the file can seek, a damaged unit is skipped, so that one bad
 * sector costs one block, not the rest; the end then reports the loss.
 */
static ptrdiff_t
sfc_damage_end(struct sfc_reader *r)
{
	if (r->damaged == 1)
		return (sfc_error(r, EBADMSG,
		    "corrupt %s compressed file: %.180s; every other block was read",
		    r->c->name, r->damage));
	return (sfc_error(r, EBADMSG,
	    "corrupt %s compressed file: %.150s, and %lld more bad block%s; every other block was read",
	    r->c->name, r->damage, (long long)(r->damaged - 1),
	    r->damaged == 2 ? "" : "s"));
}

/* Raw offset of the next unit magic at or after from; -1: none, -2: error. */
static int64_t
sfc_find_unit(struct sfc_reader *r, int64_t from)
{
	size_t mlen = r->c->magic_len, keep = 0, n, i;
	u_char buf[16384];

	if (fseeko(r->in.raw, (off_t)(r->raw_base + from), SEEK_SET) != 0)
		return (-2);
	for (;;) {
		n = fread(buf + keep, 1, sizeof(buf) - keep, r->in.raw);
		if (n == 0)
			return (ferror(r->in.raw) ? -2 : -1);
		n += keep;
		for (i = 0; i + mlen <= n; i++)
			if (memcmp(buf + i, r->c->magic, mlen) == 0)
				return (from + (int64_t)i);
		/* A magic number may straddle two reads. */
		keep = n < mlen - 1 ? n : mlen - 1;
		memmove(buf, buf + n - keep, keep);
		from += (int64_t)(n - keep);	/* buf[0]'s */
	}
}

#define	SFC_CAN_RESYNC(r)	((r)->c->magic_len != 0 && \
	(r)->c->dec->dec_units_independent && (r)->raw_base >= 0)
/* After a skip, a unit not shown to start at a record ends the read. */
static int
sfc_resync_check(struct sfc_reader *r, int held)
{
	int resumed = r->resumed;
	const char *why = held ? "does not start at a packet record" :
	    "is too large to check that it starts at a packet record";

	r->resumed = 0;
	if (!held)
		r->records.aligned = 0;
	else if (!SFC_CAN_RESYNC(r) || sfc_records_walk(&r->records,
	    r->hold, r->hold_len, r->hold_uoff))
		return (0);
	if (!resumed)
		return (0);
	if (r->damaged == 1)
		return ((int)sfc_error(r, EBADMSG,
		    "corrupt %s compressed file: %.100s; the block after it %.64s, so no more could be read",
		    r->c->name, r->damage, why));
	return ((int)sfc_error(r, EBADMSG,
	    "corrupt %s compressed file: bad block at byte offset %lld (the last of %lld); the block after it %.64s, so no more could be read",
	    r->c->name, (long long)r->damaged_last, (long long)r->damaged,
	    why));
}

/*
 * Go on after a damaged unit held whole (none of it went out), not the
 * first (the header is needed); 1: go on, 0: cannot, -1: none follows.
 */
static int
sfc_skip_damaged(struct sfc_reader *r, const char *ebuf)
{
	struct sfc_unit_start u = { -1, r->hold_uoff };

	if (r->hold_uoff == 0 || !r->records.aligned || !SFC_CAN_RESYNC(r))
		return (0);
	if (r->damaged == 0 || r->unit_off > r->damaged_last) {
		if (r->damaged == 0)
			snprintf(r->damage, sizeof(r->damage),
			    "bad block at byte offset %lld: %.150s",
			    (long long)r->unit_off, ebuf);
		r->damaged++;
		r->damaged_last = r->unit_off;
	}
	if ((u.coff = sfc_find_unit(r, r->unit_off + 1)) < 0)
		return (u.coff == -1 ? -1 : 0);
	r->resumed = sfc_restart_at(r, &u) == 0;
	return (r->resumed);
}

#define	SFC_READ_BUF		65536	/* the size of the input buffer */
#define	SFC_HOLD_FIRST		65536	/* first size of the unit buffer */
#define	SFC_UNITS_FIRST		64

static ptrdiff_t
sfc_reader_error(struct sfc_reader *r, ptrdiff_t n, const char *ebuf)
{
	r->truncated = n == SFC_DEC_TRUNCATED;
	if (r->truncated)
		return (sfc_error(r, EIO,
		    "truncated %s compressed file: it ends inside the block starting at byte offset %lld",
		    r->c->name, (long long)r->unit_off));
	if (n == SFC_DEC_CORRUPT)
		return (sfc_error(r, EBADMSG,
		    "corrupt %s compressed file: bad block at byte offset %lld: %.150s",
		    r->c->name, (long long)r->unit_off, ebuf));
#ifdef HAVE_LIBLZO2
	if (n == SFC_DEC_FAILED)
		return (sfc_error(r, EIO,
		    "error reading %s compressed file: %.200s", r->c->name,
		    ebuf));
#endif
	r->err = r->in.ioerr != 0 ? r->in.ioerr : EIO;
	pcapint_fmt_errmsg_for_errno(r->errmsg, sizeof(r->errmsg),
	    r->err, "error reading %s compressed file", r->c->name);
	errno = r->err;
	return (-1);
}

/* A unit goes out once whole and checked, unless over SFC_MAX_BLOCK. */
static ssize_t
sfc_cookie_read(void *cookie, char *buf, size_t size)
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
			n = r->c->dec->dec_read(r->dec, &r->in, (u_char *)buf,
			    size, &r->unit_off, &done, ebuf);
			if (n < 0)
				return (sfc_reader_error(r, n, ebuf));
			r->upos += n;
			r->streaming = !done;
			if (done && sfc_check_unit(r, r->upos) != 0)
				return (-1);
			if (n != 0 || !done)
				return (n);
			continue;
		}
		r->hold_pos = r->hold_len = 0;
		r->hold_uoff = r->upos;
		for (;;) {
			if (r->hold_len == r->hold_size) {
				nsize = r->hold_size == 0 ? SFC_HOLD_FIRST :
				    2 * r->hold_size;
				nhold = r->hold_size >= SFC_MAX_BLOCK ? NULL :
				    realloc(r->hold, nsize);
				if (nhold == NULL) {
					/* Too large to hold: stream it. */
					r->streaming = 1;
					if (sfc_resync_check(r, 0) == 0)
						break;
					r->hold_len = 0;
					return (-1);
				}
				r->hold = nhold;
				r->hold_size = nsize;
			}
			n = r->c->dec->dec_read(r->dec, &r->in,
			    r->hold + r->hold_len, r->hold_size - r->hold_len,
			    &r->unit_off, &done, ebuf);
			if (n == SFC_DEC_TRUNCATED && r->hold_len > 0) {
				/* The next read fails. */
				(void)sfc_reader_error(r, n, ebuf);
				break;
			}
			if (n < 0) {
				r->hold_len = 0;
				skip = n == SFC_DEC_CORRUPT ?
				    sfc_skip_damaged(r, ebuf) : 0;
				if (skip > 0)
					break;	/* the next unit */
				return (skip < 0 ? sfc_damage_end(r) :
				    sfc_reader_error(r, n, ebuf));
			}
			if (r->hold_len == 0 && (n != 0 || done))
				sfc_note_unit(r, r->unit_off, r->hold_uoff);
			r->hold_len += (size_t)n;
			if (done && (sfc_check_unit(r, r->hold_uoff +
			    (int64_t)r->hold_len) != 0 ||
			    sfc_resync_check(r, 1) != 0)) {
				r->hold_len = 0;
				return (-1);
			}
			if (done)
				break;
			if (n == 0)	/* the end of the stream */
				return (r->damaged != 0 ? sfc_damage_end(r) : 0);
		}
	}
	k = r->hold_len - r->hold_pos < size ? r->hold_len - r->hold_pos : size;
	memcpy(buf, r->hold + r->hold_pos, k);
	r->hold_pos += k;
	r->upos += k;
	return ((ssize_t)k);
}

/* Read on to target, or to the end of the stream, which is then known. */
static int
sfc_skip_to(struct sfc_reader *r, int64_t target)
{
	char scratch[8192];
	ssize_t n;
	size_t k;

	while (r->upos < target) {
		k = target - r->upos < (int64_t)sizeof(scratch) ?
		    (size_t)(target - r->upos) : sizeof(scratch);
		if ((n = sfc_cookie_read(r, scratch, k)) < 0 && !r->truncated)
			return (-1);
		if (n <= 0) {
			/* A file cut short ends where decoding did. */
			r->end_uoff = r->upos;
			break;
		}
	}
	return (0);
}

/* The last unit at or before target; dependent units have only units[0]. */
static const struct sfc_unit_start *
sfc_unit_before(const struct sfc_reader *r, int64_t target)
{
	return (&r->units[sfc_units_upto(r, target, 0) - 1]);
}

#define	SEEKTABLE_SKIPPABLE_MAGIC	0x184D2A5EU
#define	SEEKTABLE_FOOTER_MAGIC		0x8F92EAB1U
#define	SEEKTABLE_FRAME_HDR		8	/* magic, frame size */
#define	SEEKTABLE_FOOTER		9
#define	SEEKTABLE_CHECKSUM_FLAG		0x80
#define	SEEKTABLE_RESERVED_BITS		0x7C
#define	SEEKTABLE_MAX			(64 * 1024 * 1024)

static int
sfc_seektable_read_at(FILE *raw, int64_t off, void *buf, size_t len)
{
	if (fseeko(raw, (off_t)off, SEEK_SET) != 0)
		return (-1);
	return (fread(buf, 1, len, raw) == len ? 0 : -1);
}

/*
 * zstd's seekable format (contrib/seekable_format) ends with the frames'
 * sizes, to seek without decompressing; used if it adds up to the file and
 * agrees with what was read.  The last unit start is the table's own.
 */
static void
sfc_use_seek_table(struct sfc_reader *r)
{
	FILE *raw = r->in.raw;
	struct sfc_unit_start *u = NULL;
	u_char foot[SEEKTABLE_FOOTER], *t = NULL;
	uint32_t n = 0, esize;
	int64_t base = r->raw_base, size, tlen, coff = 0, uoff = 0;
	off_t here;
	size_t i, j;
	int ok = 0;

	r->table_tried = 1;
	if (!r->c->dec->seek_table || !r->c->dec->dec_units_independent ||
	    (here = ftello(raw)) < 0 || fseeko(raw, 0, SEEK_END) != 0)
		return;
	size = (int64_t)ftello(raw) - base;
	if (size < SEEKTABLE_FRAME_HDR + SEEKTABLE_FOOTER ||
	    sfc_seektable_read_at(raw, base + size - SEEKTABLE_FOOTER, foot,
	    sizeof(foot)) != 0 ||
	    EXTRACT_LE_U_4(foot + 5) != SEEKTABLE_FOOTER_MAGIC ||
	    (foot[4] & SEEKTABLE_RESERVED_BITS) != 0)
		goto done;
	n = EXTRACT_LE_U_4(foot);
	esize = (foot[4] & SEEKTABLE_CHECKSUM_FLAG) ? 12 : 8;
	/* Every block takes a byte; SEEKTABLE_MAX keeps within a size_t. */
	tlen = (int64_t)n * esize + SEEKTABLE_FOOTER;
	if (n == 0 || tlen + SEEKTABLE_FRAME_HDR + (int64_t)n > size ||
	    tlen > SEEKTABLE_MAX ||
	    (t = malloc((size_t)tlen + SEEKTABLE_FRAME_HDR)) == NULL ||
	    (u = malloc(((size_t)n + 1) * sizeof(*u))) == NULL ||
	    sfc_seektable_read_at(raw, base + size - tlen - SEEKTABLE_FRAME_HDR,
	    t, (size_t)tlen + SEEKTABLE_FRAME_HDR) != 0 ||
	    EXTRACT_LE_U_4(t) != SEEKTABLE_SKIPPABLE_MAGIC ||
	    EXTRACT_LE_U_4(t + 4) != (uint64_t)tlen)
		goto done;
	for (i = 0; i < n; i++) {
		u[i] = (struct sfc_unit_start){ coff, uoff };
		coff += EXTRACT_LE_U_4(t + SEEKTABLE_FRAME_HDR + i * esize);
		if (coff > size || uoff > INT64_MAX - UINT32_MAX)
			goto done;
		uoff += EXTRACT_LE_U_4(t + SEEKTABLE_FRAME_HDR + i * esize + 4);
	}
	u[n] = (struct sfc_unit_start){ coff, uoff };
	ok = coff + SEEKTABLE_FRAME_HDR + tlen == size &&
	    (r->end_uoff < 0 || r->end_uoff == uoff);
	for (i = 0, j = 0; ok && i < r->nunits; i++) {
		while (j <= n && u[j].coff < r->units[i].coff)
			j++;
		ok = j <= n && u[j].coff == r->units[i].coff &&
		    u[j].uoff == r->units[i].uoff;
	}
done:
	free(t);
	if (fseeko(raw, here, SEEK_SET) != 0 || !ok) {
		free(u);
		return;
	}
	free(r->units);
	r->units = u;
	r->nunits = r->units_size = (size_t)n + 1;
	r->end_uoff = uoff;
	r->table_used = 1;
}

/* Seeks decompress from the target's unit on; pipes fail with ESPIPE. */
static int
sfc_cookie_seek(void *cookie, SFC_COOKIE_OFF_T *offset, int whence)
{
	struct sfc_reader *r = cookie;
	int64_t from = r->upos, target, base;
	int invalid;

	/* Past a skipped unit, offsets are short by what it held. */
	if (r->raw_base < 0 || r->damaged != 0) {
		errno = ESPIPE;
		return (-1);
	}
	/* ftell(): the position, with nothing to decompress. */
	if (whence == SEEK_CUR && *offset == 0) {
		*offset = r->upos;
		return (0);
	}
	if (!r->table_tried)
		sfc_use_seek_table(r);
	if (whence == SEEK_SET)
		base = 0;
	else if (whence == SEEK_CUR)
		base = from;
	else if (whence == SEEK_END) {
		if (r->end_uoff < 0 && (((r->err != 0 || r->past_end) &&
		    sfc_restart_at(r, sfc_unit_before(r, r->upos)) != 0) ||
		    sfc_skip_to(r, INT64_MAX) != 0))
			return (-1);
		base = r->end_uoff;
	} else {
		errno = EINVAL;
		return (-1);
	}
	/* EINVAL leaves the position, undoing SEEK_END's read to the end. */
	invalid = (*offset > 0 && base > INT64_MAX - (int64_t)*offset) ||
	    base + (int64_t)*offset < 0;
	target = invalid ? from : base + (int64_t)*offset;
	if (invalid && r->upos == from)
		goto done;
	if (r->err == 0 && !r->past_end) {
		/* In the unit being handed out, or ahead: no new decoder. */
		if (r->hold_uoff + (int64_t)r->hold_pos == r->upos &&
		    target >= r->hold_uoff &&
		    target <= r->hold_uoff + (int64_t)r->hold_len) {
			r->hold_pos = (size_t)(target - r->hold_uoff);
			r->upos = target;
			goto done;
		}
		if (target >= r->upos &&
		    sfc_unit_before(r, target)->uoff <= r->upos)
			goto forward;
	}
	if (r->end_uoff >= 0 && target >= r->end_uoff) {
		r->upos = target;
		r->past_end = 1;
		goto done;
	}
	if (sfc_restart_at(r, sfc_unit_before(r, target)) != 0)
		return (-1);
forward:
	if (sfc_skip_to(r, target) != 0)
		return (-1);
	if (r->upos < target) {
		/* As a file does, let the position go past the end. */
		r->upos = target;
		r->past_end = 1;
	}
done:
	if (invalid) {
		errno = EINVAL;
		return (-1);
	}
	*offset = target;
	return (0);
}

/* Until a pcap_t reads the stream, fp is our caller's to close. */
static int
sfc_cookie_rclose(void *cookie)
{
	struct sfc_reader *r = cookie;
	int ret = 0;

	if (r->next_packet_op != NULL && r->in.raw != stdin)
		ret = fclose(r->in.raw) == EOF ? -1 : 0;
	if (r->dec != NULL)
		r->c->dec->dec_free(r->dec);
	free(r->hold);
	free(r->in.buf);
	free(r->units);
	free(r);
	return (ret);
}

/* The stream's message, not "error reading dump file: <strerror>". */
static int
sfc_next_packet(pcap_t *p, struct pcap_pkthdr *h, u_char **data)
{
	struct sfc_reader *r = p->rfile_cookie;
	int status = (*r->next_packet_op)(p, h, data);

	if (status == -1 && r->err != 0)
		snprintf(p->errbuf, PCAP_ERRBUF_SIZE, "%s", r->errmsg);
	return (status);
}

#ifdef HAVE_FOPENCOOKIE
static const cookie_io_functions_t sfc_cookie_fns = {
	sfc_cookie_read, NULL, sfc_cookie_seek, sfc_cookie_rclose
};
#define	SFC_COOKIE_OPEN(r)	fopencookie((r), "r", sfc_cookie_fns)
#else
/* funopen() passes an int count, and the offset (an off_t) by value. */
static int
sfc_funopen_read(void *cookie, char *buf, int size)
{
	return ((int)sfc_cookie_read(cookie, buf, (size_t)size));
}

static off_t
sfc_funopen_seek(void *cookie, off_t offset, int whence)
{
	return (sfc_cookie_seek(cookie, &offset, whence) == -1 ? -1 : offset);
}
#define	SFC_COOKIE_OPEN(r)	funopen((r), sfc_funopen_read, NULL, \
				    sfc_funopen_seek, sfc_cookie_rclose)
#endif

static pcap_t *
sfc_open_reader(const struct pcapint_sfc_container *c, const uint8_t *magic,
    FILE *fp, u_int precision, char *errbuf, int *err)
{
	struct sfc_reader *r;
	FILE *cfp;
	uint8_t m[4];
	size_t n;
	off_t here;
	pcap_t *p = NULL;

	*err = 1;
	if ((r = pcapint_sfc_calloc(sizeof(*r), errbuf)) == NULL ||
	    (r->in.buf = pcapint_sfc_calloc(SFC_READ_BUF, errbuf)) == NULL ||
	    (r->units = pcapint_sfc_calloc(SFC_UNITS_FIRST * sizeof(*r->units),
	    errbuf)) == NULL)
		goto fail;
	r->c = c;
	r->in.raw = fp;
	r->in.size = SFC_READ_BUF;
	/* Push back the magic: stdin and pipes cannot seek. */
	memcpy(r->in.buf, magic, 4);
	r->in.len = 4;
	here = ftello(fp);
	r->raw_base = here >= 4 && fseeko(fp, here, SEEK_SET) == 0 ?
	    (int64_t)here - 4 : -1;
	r->end_uoff = -1;
	r->records.aligned = 1;
	r->units_size = SFC_UNITS_FIRST;
	r->nunits = 1;	/* units[0]: the stream starts at 0 in both */
	if ((r->dec = r->c->dec->dec_create(errbuf)) == NULL)
		goto fail;
	if ((cfp = SFC_COOKIE_OPEN(r)) == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "cannot open the decompressing stream");
		goto fail;
	}
	/* From here on, closing cfp frees r. */
	if ((n = fread(m, 1, sizeof(m), cfp)) == sizeof(m)) {
		p = pcap_check_header(m, cfp, precision, errbuf, err);
		if (p == NULL && *err == 0)
			p = pcap_ng_check_header(m, cfp, precision, errbuf,
			    err);
	}
	if (p == NULL) {
		if (r->err != 0)
			snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", r->errmsg);
		else if (n != sizeof(m))
			snprintf(errbuf, PCAP_ERRBUF_SIZE,
			    "truncated dump file; the %s compressed data holds only %zu bytes",
			    c->name, n);
		else if (*err == 0)
			snprintf(errbuf, PCAP_ERRBUF_SIZE,
			    "%s compressed file does not contain a pcap or pcapng capture",
			    c->name);
		*err = 1;
		(void)fclose(cfp);
		return (NULL);
	}
	r->next_packet_op = p->next_packet_op;
	p->next_packet_op = sfc_next_packet;
	p->rfile_cookie = r;
	/* savefile.c takes selectable_fd from fp: cfp has no descriptor. */
	p->rfile = cfp;
	return (p);
fail:
	if (r != NULL)
		(void)sfc_cookie_rclose(r);
	return (NULL);
}
#endif /* SFC_COOKIE_OFF_T */

/* What this build cannot read is refused by name, not as unknown. */
pcap_t *
pcapint_compressed_check_header(const uint8_t *magic, FILE *fp,
    u_int precision, char *errbuf, int *err)
{
	const struct pcapint_sfc_container *c;
	u_int i, len;

	*err = 0;
	for (i = 0; i < SFC_NCONTAINERS; i++) {
		c = &pcapint_sfc_containers[i];
		len = c->magic_len < SFC_MAGIC_CHECK ? c->magic_len :
		    SFC_MAGIC_CHECK;
		if (len == 0 || memcmp(magic, c->magic, len) != 0)
			continue;
#ifdef SFC_COOKIE_OFF_T
		if (c->dec != NULL)
			return (sfc_open_reader(c, magic, fp, precision,
			    errbuf, err));
#else
		(void)fp;
		(void)precision;
#endif
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "the file is %s compressed, which this build of libpcap cannot read",
		    c->name);
		*err = 1;
		return (NULL);
	}
	return (NULL);
}
