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
 * The stream reads (sf-compress-decompress.c) and seeks
 * (sf-compress-seek.c) as the file would, and reading goes on past a
 * damaged unit where the file can seek (sf-compress-resync.c); the
 * reader's state, which they share, is in sf-compress-units.h.
 */

#include <config.h>

#include "ftmacros.h"	/* fopencookie() */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcap-int.h"
#include "sf-pcap.h"
#include "sf-pcapng.h"
#include "sf-compress.h"
#include "sf-compress-units.h"
#include "sf-compress-decompress.h"
#include "sf-compress-seek.h"

/* The size of the input buffer. */
#define	SFC_READ_BUF		65536

static void
sfc_reader_free(struct sfc_reader *r)
{
	if (r->dec != NULL)
		r->ops->dec_free(r->dec);
	free(r->hold);
	free(r->in.buf);
	free(r->units);
	free(r);
}

static int
sfc_cookie_rclose(void *cookie)
{
	struct sfc_reader *r = cookie;
	int ret;

	ret = 0;
	if (r->owns_raw && r->in.raw != stdin)
		ret = fclose(r->in.raw) == EOF ? -1 : 0;
	sfc_reader_free(r);
	return (ret);
}

/*
 * The pcap and pcapng readers turn any read error into "error reading
 * dump file: <strerror>"; put the decompressing stream's message, which
 * says what is wrong and at which offset, in its place.
 */
static int
sfc_next_packet(pcap_t *p, struct pcap_pkthdr *h, u_char **data)
{
	struct sfc_reader *r = p->rfile_cookie;
	int status;

	status = (*r->next_packet_op)(p, h, data);
	if (status == -1 && r->err != 0)
		snprintf(p->errbuf, PCAP_ERRBUF_SIZE, "%s", r->errmsg);
	return (status);
}

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

	*err = 1;
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
		    errno, "malloc");
		return (NULL);
	}
	r->ops = c->dec;
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
	pcapint_sfc_records_init(&r->records);
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
	r->dec = r->ops->dec_create(errbuf);
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
	r->next_packet_op = p->next_packet_op;
	p->next_packet_op = sfc_next_packet;
	p->rfile_cookie = r;
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
	if (c->dec == NULL)
		return (pcapint_sfc_cannot_read(c, errbuf, err));
	return (sfc_open_reader(c, magic, fp, precision, errbuf, err));
}
