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
 */

/*
 * Write a savefile in a codec, then read it back record for record.
 * The records, 1 byte to more than a block long and every fifth one
 * incompressible, give compressed and stored blocks and records across.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
  #include "getopt.h"
#else
  #include <unistd.h>
#endif

#if defined(_WIN32) || defined(__QNX__)
  #include "unix.h"
#else
  #include <sysexits.h>
#endif

#include <pcap.h>

#define NRECORDS	1000
#define SNAPLEN		9000
#define BLOCK_SIZE	4096
/* A writer ring that holds every record, so that none is dropped. */
#define RING_SIZE	((size_t)8 * 1024 * 1024)

static const char *program_name;

static void
fail(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ERROR: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

/* Record i is a function of i alone, so the reader can check it. */
static void
make_record(unsigned i, struct pcap_pkthdr *h, u_char *data)
{
	uint32_t x = i * 2654435761U + 1;
	unsigned j;

	h->ts.tv_sec = 1700000000 + i;
	h->ts.tv_usec = (i * 7919) % 1000000;
	h->caplen = 1 + (i * 37) % SNAPLEN;
	h->len = h->caplen + (i % 3 == 0 ? 100 : 0);
	for (j = 0; j < h->caplen; j++) {
		if (i % 5 == 0) {
			x ^= x << 13;	/* xorshift */
			x ^= x >> 17;
			x ^= x << 5;
			data[j] = (u_char)x;
		} else
			data[j] = (u_char)((i + j / 64) & 0x0f);
	}
}

static void
write_file(const char *path, const char *codec, int writer_thread)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	static u_char data[SNAPLEN];
	struct pcap_pkthdr h;
	struct pcap_dump_stats st;
	pcap_dump_options_t *opts;
	pcap_dumper_t *d;
	pcap_t *p;
	FILE *f;
	unsigned i;

	if ((p = pcap_open_dead(DLT_EN10MB, SNAPLEN)) == NULL)
		fail(EX_SOFTWARE, "pcap_open_dead failed");
	opts = pcap_dump_options_create(errbuf);
	if (opts == NULL ||
	    pcap_dump_options_set_compression(opts, codec, errbuf) != 0 ||
	    pcap_dump_options_set_block_size(opts, BLOCK_SIZE, errbuf) != 0 ||
	    (writer_thread &&
	     pcap_dump_options_set_writer_thread(opts, RING_SIZE, errbuf) != 0))
		fail(EX_DATAERR, "%s", errbuf);
	/* Our own FILE: a file libpcap opens waits on the disk (O_DIRECT). */
	if ((f = fopen(path, "wb")) == NULL)
		fail(EX_CANTCREAT, "%s: %s", path, strerror(errno));
	d = pcap_dump_fopen_with_options(p, f, opts);
	pcap_dump_options_free(opts);
	if (d == NULL)
		fail(EX_CANTCREAT, "%s", pcap_geterr(p));
	for (i = 0; i < NRECORDS; i++) {
		make_record(i, &h, data);
		pcap_dump((u_char *)d, &h, data);
	}
	if (pcap_dump_flush(d) != 0 ||
	    pcap_dump_get_stats(d, &st, sizeof(st)) != 0)
		fail(EX_IOERR, "%s", pcap_dump_geterr(d));
	if (st.records != NRECORDS || st.records_lost != 0 ||
	    st.records_dropped != 0)
		fail(EX_IOERR, "%llu records, %llu lost, %llu dropped",
		    (unsigned long long)st.records,
		    (unsigned long long)st.records_lost,
		    (unsigned long long)st.records_dropped);
	pcap_dump_close(d);
	pcap_close(p);
}

static void
read_file(const char *path)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	static u_char want[SNAPLEN];
	struct pcap_pkthdr *h, wh;
	const u_char *data;
	pcap_t *p;
	unsigned n;
	int status;

	if ((p = pcap_open_offline(path, errbuf)) == NULL)
		fail(EX_DATAERR, "%s", errbuf);
	for (n = 0; (status = pcap_next_ex(p, &h, &data)) == 1; n++) {
		if (n < NRECORDS)
			make_record(n, &wh, want);
		if (n >= NRECORDS || h->ts.tv_sec != wh.ts.tv_sec ||
		    h->ts.tv_usec != wh.ts.tv_usec ||
		    h->caplen != wh.caplen || h->len != wh.len ||
		    memcmp(data, want, wh.caplen) != 0)
			fail(EX_DATAERR, "record %u differs", n);
	}
	if (status != PCAP_ERROR_BREAK)
		fail(EX_DATAERR, "after %u records: %s", n, pcap_geterr(p));
	if (n != NRECORDS)
		fail(EX_DATAERR, "%u records of %u", n, NRECORDS);
	printf("OK: %u records\n", n);
}

static void
usage(FILE *f)
{
	fprintf(f, "Usage: %s [-t] <codec> <file>\n"
	    "(write <file> in <codec>, then read it back%s)\n", program_name,
	    "; -t: from a writer thread");
}

int
main(int argc, char **argv)
{
	const char *cp;
	int op, writer_thread = 0;

	program_name = (cp = strrchr(argv[0], '/')) ? cp + 1 : argv[0];
	while ((op = getopt(argc, argv, "ht")) != -1) {
		if (op != 't') {
			usage(op == 'h' ? stdout : stderr);
			return (op == 'h' ? EX_OK : EX_USAGE);
		}
		writer_thread = 1;
	}
	if (argc - optind != 2)
		fail(EX_USAGE, "give a codec and a file");
	write_file(argv[optind + 1], argv[optind], writer_thread);
	read_file(argv[optind + 1]);
	return EX_OK;
}
