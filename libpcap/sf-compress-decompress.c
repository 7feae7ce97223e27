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
 * Compressed savefiles: reading the decompressed stream.
 *
 * The stream is handed out one container unit (gzip member, LZ4 or zstd
 * frame) at a time, and a unit of at most SFC_MAX_BLOCK
 * only once it is complete and its checksum, where it has one, matched,
 * so such a damaged block is never delivered, in part or whole; larger
 * units are streamed (see pcapint_sfc_cookie_read()).  A unit the file
 * ends inside is handed out as far as it was decoded, as zcat would,
 * since a capture cut short (a full disk, a killed capture) is the
 * common case and its bytes are not damaged, only missing.  The error
 * says what is wrong and at which byte offset of the compressed file.
 * Where the file can seek and its units end at records, reading goes on
 * past a damaged unit (sf-compress-resync.c).
 */

#include <config.h>

#include "ftmacros.h"	/* fopencookie() */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcap-int.h"
#include "sf-compress.h"
#include "sf-compress-units.h"
#include "sf-compress-resync.h"
#include "sf-compress-decompress.h"

/* The first size of the buffer holding a unit. */
#define	SFC_HOLD_FIRST		65536

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
		r->truncated = 1;
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
			n = r->ops->dec_read(r->dec, &r->in, (u_char *)buf,
			    size, &r->unit_off, &done, ebuf);
			if (n < 0)
				return (sfc_reader_error(r, n, ebuf));
			r->upos += n;
			if (done) {
				r->streaming = 0;
				if (pcapint_sfc_check_unit(r, r->hold_coff,
				    r->hold_uoff, r->upos) != 0)
					return (-1);
			}
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
					if (pcapint_sfc_resync_unheld(r) != 0) {
						r->hold_len = 0;
						return (-1);
					}
					r->streaming = 1;
					break;
				}
				r->hold = nhold;
				r->hold_size = nsize;
			}
			n = r->ops->dec_read(r->dec, &r->in,
			    r->hold + r->hold_len, r->hold_size - r->hold_len,
			    &r->unit_off, &done, ebuf);
			if (n == SFC_DEC_TRUNCATED && r->hold_len > 0) {
				/*
				 * The file ends inside this unit: what was
				 * decoded of it is handed out, as a plain
				 * savefile cut short gives its whole
				 * records, and the read after it fails.
				 */
				(void)sfc_reader_error(r, n, ebuf);
				break;
			}
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
			if (r->hold_len == 0 && (n != 0 || done)) {
				r->hold_coff = r->unit_off;
				pcapint_sfc_note_unit(r, r->unit_off,
				    r->hold_uoff);
			}
			r->hold_len += (size_t)n;
			if (done) {
				if (pcapint_sfc_check_unit(r, r->hold_coff,
				    r->hold_uoff, r->hold_uoff +
				    (int64_t)r->hold_len) != 0 ||
				    pcapint_sfc_resync_walk(r) != 0) {
					r->hold_len = 0;
					return (-1);
				}
				break;
			}
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
