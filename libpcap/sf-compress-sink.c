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
 * Compressed savefiles: the sink, see sf-compress-sink.h.
 */

#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pcap-int.h"
#include "sf-compress-sink.h"
#ifdef SFC_WRITER_THREAD
#include "sf-writer.h"
#endif

int
pcapint_sfc_sink_init(struct pcapint_sfc_sink *s, FILE *f,
    const struct pcapint_sfc_encoder *codec, void *enc, char *errbuf)
{
	off_t off;

	s->raw = f;
	s->fd = fileno(f);
	s->codec = codec;
	s->name = SFC_ENCODER_NAME(codec);
	/*
	 * From here on we write to the descriptor, one write() per
	 * block.
	 */
	if (fflush(f) == EOF) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "can't flush the output stream");
		return (-1);
	}
	off = lseek(s->fd, 0, SEEK_CUR);
	s->base = off > 0 ? (int64_t)off : 0;
	/*
	 * A stream header, in a container that has one, goes out with the
	 * first block, so that a write error is sticky like any other.
	 */
	s->hdr_len = codec->enc_header(enc, s->hdr);
	return (0);
}

void
pcapint_sfc_sink_fail(struct pcapint_sfc_sink *s, int err, const char *what)
{
	if (s->err != 0)
		return;
	if (err == 0)
		err = EIO;
	pcapint_fmt_errmsg_for_errno(s->errmsg, sizeof(s->errmsg), err,
	    "%s", what);
	__atomic_store_n(&s->err, err, __ATOMIC_RELEASE);
}
#ifdef SFC_WRITER_THREAD

void
pcapint_sfc_sink_give_up(struct pcapint_sfc_sink *s, int err,
    const char *msg)
{
	int zero = 0;

	if (__atomic_load_n(&s->err, __ATOMIC_ACQUIRE) != 0)
		return;
	if (msg != NULL)
		snprintf(s->errmsg, sizeof(s->errmsg), "%s", msg);
	(void)__atomic_compare_exchange_n(&s->err, &zero, err, 0,
	    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}
#endif

static int
sfc_sink_write(struct pcapint_sfc_sink *s, const u_char *p, size_t len)
{
	ssize_t n;

	while (len != 0) {
#ifdef SFC_WRITER_THREAD
		n = pcapint_writer_write_cancellable(s->fd, p, len);
#else
		n = write(s->fd, p, len);
#endif
		if (n < 0) {
			if (errno == EINTR)
				continue;
			pcapint_sfc_sink_fail(s, errno,
			    "error writing compressed savefile");
			return (-1);
		}
		p += n;
		len -= (size_t)n;
		SFC_STORE(s->out_bytes, s->out_bytes + (uint64_t)n);
	}
	return (0);
}

int
pcapint_sfc_sink_block(struct pcapint_sfc_sink *s,
    const struct pcapint_sfc_block *b, uint64_t *write_ns)
{
	uint64_t start;

	*write_ns = 0;
	if (s->err != 0)
		return (-1);
	if (b->out_len < 0) {
		snprintf(s->errmsg, sizeof(s->errmsg),
		    "%s compression failed: %.200s", s->name, b->ebuf);
		__atomic_store_n(&s->err, EIO, __ATOMIC_RELEASE);
		return (-1);
	}
	if (s->hdr_len != 0) {
		if (sfc_sink_write(s, s->hdr, s->hdr_len) == -1)
			return (-1);
		s->hdr_len = 0;
	}
	start = pcapint_sfc_clock_ns(CLOCK_MONOTONIC);
	if (sfc_sink_write(s, b->res, (size_t)b->out_len) == -1)
		return (-1);
	*write_ns = pcapint_sfc_clock_ns(CLOCK_MONOTONIC) - start;
	/* Storing without a codec is not a codec giving up. */
	if (b->stored && s->codec->compresses)
		SFC_STORE(s->blocks_stored, s->blocks_stored + 1);
	SFC_STORE(s->blocks, s->blocks + 1);
	SFC_STORE(s->records, s->records + b->records);
	return (0);
}

int
pcapint_sfc_sink_close(struct pcapint_sfc_sink *s, void *enc)
{
	u_char trailer[SFC_MAX_HEADER];
	size_t n;
	int ret;

	if (s->err == 0 && s->blocks != 0) {
		n = s->codec->enc_trailer(enc, trailer);
		if (n != 0)
			(void)sfc_sink_write(s, trailer, n);
	}
	ret = s->err != 0 ? -1 : 0;
	/* Don't close the standard output, which the program may still use. */
	if (s->raw != stdout) {
		if (fclose(s->raw) == EOF && ret == 0)
			ret = -1;
	}
	s->raw = NULL;
	return (ret);
}

int64_t
pcapint_sfc_sink_tell(struct pcapint_sfc_sink *s)
{
	return (s->base + (int64_t)SFC_LOAD(s->out_bytes));
}
