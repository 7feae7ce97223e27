/*
 * sluice-seqcheck -- count what a capture of sluice-gen frames lost.
 *
 * Reads a capture with libpcap (so any file our libpcap reads: pcap,
 * pcapng, and whatever container formats it learns), finds the sequence
 * marker sluice-gen put in each frame (sluice-seq.h) and reports frames,
 * marked frames, missing and duplicated sequence numbers, frames out of
 * order, and the first and last sequence numbers seen.  "missing" counts
 * the numbers absent between the lowest and the highest seen (with
 * --expect: in the expected range, so a lost tail counts too);
 * "out-of-order" counts frames whose number is below that of the frame
 * before them; "duplicates" counts extra copies.
 *
 * With --expect N it asserts the capture is exactly frames 0..N-1 (or
 * S..S+N-1 with --seq-start S), each once and in order, and nothing else.
 * With --compare REF (repeatable) it asserts each frame's bytes and
 * lengths equal those of the frames in the reference files read one
 * after another; timestamps are not compared.
 *
 * Exit status: 0 all assertions held (or none were asked for), 1 an
 * assertion failed, 2 bad usage or an unreadable file.
 */
/* pcap.h uses u_char and u_int, which strict -std=c99 hides. */
#define _DEFAULT_SOURCE

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "sluice-seq.h"

#define PROG		"sluice-seqcheck"

#include "gen-util.h"
#define MAX_REFS	16
#define MAX_SHOWN	10	/* missing ranges / mismatches listed */

struct refs {
	const char *path[MAX_REFS];
	int n;
	int cur;
	pcap_t *p;
	int linktype;
};

static void
usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " [--expect N] [--seq-start S] [--compare REF]... [--quiet]\n"
"                       FILE\n"
"\n"
"  --expect N      fail unless FILE holds exactly N frames carrying the\n"
"                  sequence numbers S..S+N-1, each once, in order\n"
"  --seq-start S   first expected sequence number (default 0)\n"
"  --compare REF   fail unless every frame's bytes and lengths equal the\n"
"                  next frame of REF; repeat to compare against several\n"
"                  files read one after another (at most %d)\n"
"  --quiet         print only failures\n"
"\n"
"FILE \"-\" is standard input.  Exit status: 0 ok, 1 a check failed,\n"
"2 bad usage or unreadable input.\n", MAX_REFS);
}

static int
parse_u32(const char *s, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v > UINT32_MAX)
		return (-1);
	*out = (uint32_t)v;
	return (0);
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x < y ? -1 : x > y);
}

/*
 * Next frame of the reference stream.  Returns 1 with a frame, 0 at the
 * end of the last file, -1 on error (message printed).
 */
static int
ref_next(struct refs *r, struct pcap_pkthdr **h, const u_char **data)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	int rc;

	for (;;) {
		if (r->p == NULL) {
			if (r->cur >= r->n)
				return (0);
			r->p = pcap_open_offline(r->path[r->cur], errbuf);
			if (r->p == NULL) {
				fprintf(stderr, PROG ": %s\n", errbuf);
				return (-1);
			}
			r->linktype = pcap_datalink(r->p);
		}
		rc = pcap_next_ex(r->p, h, data);
		if (rc == 1)
			return (1);
		if (rc == PCAP_ERROR) {
			fprintf(stderr, PROG ": %s: %s\n", r->path[r->cur],
			    pcap_geterr(r->p));
			return (-1);
		}
		pcap_close(r->p);
		r->p = NULL;
		r->cur++;
	}
}

int
main(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct refs refs;
	struct pcap_pkthdr *h, *rh;
	const u_char *data, *rdata;
	const char *path = NULL;
	pcap_t *p;
	uint32_t *seqs = NULL, *tmp, seq, prev = 0, expect_n = 0, seq0 = 0;
	uint32_t first = 0, last = 0, lo, hi;
	uint64_t frames = 0, marked = 0, nseqs = 0, cap = 0, dups = 0;
	uint64_t ooo = 0, missing = 0, distinct, i, j, bad_pos = 0;
	uint64_t mism = 0, ref_extra = 0, shown;
	int have_expect = 0, quiet = 0, linktype, rc, failed = 0, rr;
	int have_prev = 0, ref_done = 0, a;

	memset(&refs, 0, sizeof(refs));
	for (a = 1; a < argc; a++) {
		const char *o = argv[a];

		if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
			usage(stdout);
			return (0);
		} else if (strcmp(o, "--quiet") == 0 || strcmp(o, "-q") == 0) {
			quiet = 1;
		} else if (strcmp(o, "--expect") == 0 ||
		    strcmp(o, "--seq-start") == 0 ||
		    strcmp(o, "--compare") == 0) {
			if (a + 1 >= argc)
				bad_usage("option '%s' needs an argument", o);
			a++;
			if (strcmp(o, "--expect") == 0) {
				if (parse_u32(argv[a], &expect_n) != 0 ||
				    expect_n == 0)
					bad_usage("invalid --expect '%s' (1-4294967295)", argv[a]);
				have_expect = 1;
			} else if (strcmp(o, "--seq-start") == 0) {
				if (parse_u32(argv[a], &seq0) != 0)
					bad_usage("invalid --seq-start '%s'", argv[a]);
			} else {
				if (refs.n >= MAX_REFS)
					bad_usage("%s", "too many --compare files");
				refs.path[refs.n++] = argv[a];
			}
		} else if (o[0] == '-' && o[1] != '\0') {
			bad_usage("unknown option '%s'", o);
		} else if (path != NULL) {
			bad_usage("unexpected argument '%s' (one capture file only)", o);
		} else
			path = o;
	}
	if (path == NULL)
		bad_usage("%s", "no capture file given");
	if (have_expect && expect_n - 1 > UINT32_MAX - seq0)
		bad_usage("%s", "--expect and --seq-start exceed the 32-bit sequence space");

	p = pcap_open_offline(path, errbuf);
	if (p == NULL) {
		fprintf(stderr, PROG ": %s\n", errbuf);
		return (2);
	}
	linktype = pcap_datalink(p);

	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		frames++;
		if (refs.n > 0 && !ref_done) {
			rr = ref_next(&refs, &rh, &rdata);
			if (rr < 0) {
				failed = 2;
				break;
			}
			if (rr == 0) {
				ref_done = 1;
				fprintf(stderr, PROG ": frame %llu: the reference files end here\n",
				    (unsigned long long)frames);
				mism++;
			} else if (rh->caplen != h->caplen ||
			    rh->len != h->len ||
			    refs.linktype != linktype ||
			    memcmp(rdata, data, h->caplen) != 0) {
				if (mism < MAX_SHOWN)
					fprintf(stderr, PROG ": frame %llu differs from the reference (caplen %u/%u, len %u/%u)\n",
					    (unsigned long long)frames,
					    h->caplen, rh->caplen, h->len,
					    rh->len);
				mism++;
			}
		}
		if (!slsq_find(linktype, data, h->caplen, &seq))
			continue;
		marked++;
		if (marked == 1)
			first = seq;
		last = seq;
		/* A frame below its predecessor: reordered (or a late dup). */
		if (have_prev && seq < prev)
			ooo++;
		/* --expect: the k-th frame must carry seq0 + k - 1. */
		if (seq != seq0 + (uint32_t)(frames - 1) && bad_pos == 0)
			bad_pos = frames;
		prev = seq;
		have_prev = 1;
		if (nseqs == cap) {
			cap = cap ? cap * 2 : 4096;
			tmp = realloc(seqs, cap * sizeof(*seqs));
			if (tmp == NULL) {
				fprintf(stderr, PROG ": out of memory after %llu frames\n",
				    (unsigned long long)frames);
				free(seqs);
				pcap_close(p);
				return (2);
			}
			seqs = tmp;
		}
		seqs[nseqs++] = seq;
	}
	if (rc == PCAP_ERROR) {
		/* A cut or corrupt file: report what was read, then fail. */
		fprintf(stderr, PROG ": %s: %s (after %llu frames)\n", path,
		    pcap_geterr(p), (unsigned long long)frames);
		failed = 2;
	}
	pcap_close(p);
	if (refs.n > 0 && !ref_done && failed != 2) {
		while ((rr = ref_next(&refs, &rh, &rdata)) == 1)
			ref_extra++;
		if (rr < 0)
			failed = 2;
		if (ref_extra > 0) {
			fprintf(stderr, PROG ": the reference files hold %llu frames more than %s\n",
			    (unsigned long long)ref_extra, path);
			mism++;
		}
	}
	if (refs.p != NULL)
		pcap_close(refs.p);

	/*
	 * Duplicates and gaps from the sorted list.  A file with no
	 * numbered frames has no list (qsort() must not get NULL).
	 */
	if (nseqs > 0)
		qsort(seqs, (size_t)nseqs, sizeof(*seqs), cmp_u32);
	distinct = 0;
	for (i = 0; i < nseqs; i++) {
		if (i > 0 && seqs[i] == seqs[i - 1])
			dups++;
		else
			distinct++;
	}
	if (have_expect) {
		lo = seq0;
		hi = seq0 + expect_n - 1;
	} else {
		lo = nseqs ? seqs[0] : 0;
		hi = nseqs ? seqs[nseqs - 1] : 0;
	}
	if (have_expect || nseqs > 0) {
		uint64_t in_range = 0, range;

		range = have_expect ? expect_n : (uint64_t)hi - lo + 1;
		for (i = 0; i < nseqs; i++)
			if (seqs[i] >= lo && seqs[i] <= hi &&
			    (i == 0 || seqs[i] != seqs[i - 1]))
				in_range++;
		missing = range - in_range;
	}

	if (!quiet || failed || (have_expect && (missing || dups || ooo ||
	    marked != expect_n || frames != expect_n || bad_pos)) || mism) {
		printf("frames: %llu\n", (unsigned long long)frames);
		printf("marked: %llu\n", (unsigned long long)marked);
		printf("unmarked: %llu\n",
		    (unsigned long long)(frames - marked));
		printf("distinct: %llu\n", (unsigned long long)distinct);
		printf("missing: %llu\n", (unsigned long long)missing);
		printf("duplicates: %llu\n", (unsigned long long)dups);
		printf("out-of-order: %llu\n", (unsigned long long)ooo);
		if (marked > 0) {
			printf("first: %lu\n", (unsigned long)first);
			printf("last: %lu\n", (unsigned long)last);
		}
		if (refs.n > 0)
			printf("differing: %llu\n", (unsigned long long)mism);
		/* Name the first few gaps: they tell where the loss began. */
		if (missing > 0) {
			uint64_t want = lo;

			printf("missing ranges:");
			shown = 0;
			for (j = 0; j <= nseqs && shown < MAX_SHOWN; j++) {
				uint64_t have;

				have = j < nseqs ? seqs[j] : (uint64_t)hi + 1;

				if (have < want)
					continue;
				if (have > (uint64_t)hi + 1)
					have = (uint64_t)hi + 1;
				if (have > want) {
					if (have - 1 == want)
						printf(" %llu", (unsigned long long)want);
					else
						printf(" %llu-%llu",
						    (unsigned long long)want,
						    (unsigned long long)(have - 1));
					shown++;
				}
				want = have + 1;
				if (want > (uint64_t)hi)
					break;
			}
			printf("%s\n", shown == MAX_SHOWN ? " ..." : "");
		}
	}
	free(seqs);

	if (failed)
		return (failed);
	if (have_expect) {
		if (frames != expect_n || marked != expect_n || missing ||
		    dups || ooo || bad_pos) {
			fprintf(stderr, PROG ": %s: expected frames %lu..%lu once each in order",
			    path, (unsigned long)seq0,
			    (unsigned long)(seq0 + expect_n - 1));
			if (frames != expect_n)
				fprintf(stderr, "; got %llu frames",
				    (unsigned long long)frames);
			if (frames != marked)
				fprintf(stderr, ", %llu without a sequence marker",
				    (unsigned long long)(frames - marked));
			if (missing)
				fprintf(stderr, "; %llu missing",
				    (unsigned long long)missing);
			if (dups)
				fprintf(stderr, "; %llu duplicated",
				    (unsigned long long)dups);
			if (ooo)
				fprintf(stderr, "; %llu out of order",
				    (unsigned long long)ooo);
			if (bad_pos && !missing && !dups && !ooo &&
			    frames == marked)
				fprintf(stderr, "; frame %llu has the wrong number",
				    (unsigned long long)bad_pos);
			fprintf(stderr, "\n");
			failed = 1;
		}
	}
	if (mism) {
		fprintf(stderr, PROG ": %s: %llu frames differ from the reference\n",
		    path, (unsigned long long)mism);
		failed = 1;
	}
	return (failed);
}
