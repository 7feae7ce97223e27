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
 * Compressed savefiles: the raw input of a reader, which the containers'
 * decoders read through (see struct pcapint_sfc_input in sf-compress.h),
 * and the read loop that the decoders of streaming libraries share.
 */

#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pcap-int.h"
#include "sf-compress.h"

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
#ifdef SFC_LZOP_CONTAINER

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
#endif

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
		if (!s->in_unit && s->zero_padding && in->buf[in->pos] == 0) {
			/*
			 * Zero bytes where a unit would start, as tape and
			 * block devices pad a file, end the stream if
			 * nothing else follows them (gzip -d ignores them
			 * so); anything else after them starts a unit,
			 * which the decoder then finds damaged.
			 */
			while (in->pos < in->len && in->buf[in->pos] == 0)
				in->pos++;
			continue;
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
