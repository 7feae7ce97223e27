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
 * Compressed savefiles: the assembler, see sf-compress-assembler.h.
 */

#include <config.h>

#include <string.h>

#include "pcap-int.h"
#include "sf-compress-assembler.h"

void
pcapint_sfc_assembler_init(struct pcapint_sfc_assembler *a, u_char *buf,
    size_t full, int skip_file_header, int (*block_full)(void *), void *ctx)
{
	memset(a, 0, sizeof(*a));
	a->buf = buf;
	a->full = full;
	a->block_full = block_full;
	a->ctx = ctx;
	if (skip_file_header)
		a->in_bytes = PCAP_FILE_HDR_LEN;
}

int
pcapint_sfc_assembler_flush(struct pcapint_sfc_assembler *a)
{
	if (a->failed)
		return (-1);
	if (a->fill == 0)
		return (0);
	if (a->block_full(a->ctx) != 0) {
		/*
		 * Nothing is stored after an error, but records are still
		 * counted, as lost: never report a failure to stdio, as
		 * that would set the error flag of the FILE and
		 * pcap_dump() would then drop every later record without
		 * a trace.
		 */
		a->failed = 1;
		a->fill = 0;
		a->records = 0;
		return (-1);
	}
	return (0);
}

void
pcapint_sfc_assembler_next(struct pcapint_sfc_assembler *a, u_char *buf,
    size_t full)
{
	a->buf = buf;
	a->fill = 0;
	a->records = 0;
	a->full = full;
}

void
pcapint_sfc_assembler_redirect(struct pcapint_sfc_assembler *a, u_char *buf,
    int (*block_full)(void *), void *ctx)
{
	if (buf != a->buf && a->fill != 0)
		memmove(buf, a->buf, a->fill);
	a->buf = buf;
	a->block_full = block_full;
	a->ctx = ctx;
}

/*
 * Copy what fits of the len bytes at p into room bytes at dst, and
 * advance past it; how much that was.
 */
static size_t
sfc_take(u_char *dst, size_t room, const u_char **p, size_t *len)
{
	size_t n;

	n = room < *len ? room : *len;
	memcpy(dst, *p, n);
	*p += n;
	*len -= n;
	return (n);
}

/*
 * Append to the block; a block that fills up on the way (a record
 * larger than a block) is handed on as it is.
 */
static void
sfc_put(struct pcapint_sfc_assembler *a, const u_char *p, size_t len)
{
	while (len != 0 && !a->failed) {
		/*
		 * At or past: a block whose size shrank may already hold
		 * more than a block now holds.
		 */
		if (a->fill >= a->full) {
			(void)pcapint_sfc_assembler_flush(a);
			continue;
		}
		a->fill += sfc_take(a->buf + a->fill, a->full - a->fill, &p,
		    &len);
	}
}

/*
 * A record of len bytes, header included, begins: if it does not fit
 * in what is left of the block, the block ends before it.
 */
static void
sfc_record_begins(struct pcapint_sfc_assembler *a, uint64_t len)
{
	if (a->fill != 0 && a->fill + len > a->full)
		(void)pcapint_sfc_assembler_flush(a);
}

static void
sfc_record_ends(struct pcapint_sfc_assembler *a)
{
	SFC_STORE(a->in_records, a->in_records + 1);
	a->records++;
#ifdef SFC_WRITER_THREAD
	if (a->record_end != NULL)
		a->record_end(a->ctx);
#endif
}

void
pcapint_sfc_assemble(struct pcapint_sfc_assembler *a, const u_char *p,
    size_t len)
{
	uint32_t caplen;
	size_t n;

	if (a->in_bytes < PCAP_FILE_HDR_LEN) {
		n = PCAP_FILE_HDR_LEN - (size_t)a->in_bytes;
		if (n > len)
			n = len;
		SFC_STORE(a->in_bytes, a->in_bytes + n);
		sfc_put(a, p, n);
		p += n;
		len -= n;
	}
	SFC_STORE(a->in_bytes, a->in_bytes + len);
	while (len != 0) {
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

int
pcapint_sfc_assemble_record(struct pcapint_sfc_assembler *a, const void *hdr,
    const u_char *data, size_t caplen)
{
	if (!PCAPINT_SFC_AT_RECORD_BOUNDARY(a))
		return (-1);
	SFC_STORE(a->in_bytes, a->in_bytes + PCAP_REC_HDR_LEN + caplen);
	sfc_record_begins(a, PCAP_REC_HDR_LEN + (uint64_t)caplen);
	sfc_put(a, hdr, PCAP_REC_HDR_LEN);
	sfc_put(a, data, caplen);
	sfc_record_ends(a);
	return (0);
}
