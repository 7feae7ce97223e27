/*
 * slowsink -- consume standard input at a fixed byte rate, like a slow
 * disk.
 *
 * Data is read in small chunks and no faster than --rate bytes per second
 * on average, so a writer feeding the pipe fills it and then blocks in
 * write(), as it would on a disk that cannot keep up.  That is the
 * condition under which a capture program has to buffer or lose packets.
 * The data is discarded, or copied to --out FILE so it can be checked.
 *
 * Exit status: 0 at end of input, 3 when --max-seconds ran out first,
 * 1 on a read or write error, 2 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROG		"slowsink"

#include "gen-util.h"
#define CHUNK_MAX	(1024 * 1024)

static void
usage(FILE *f)
{
	fprintf(f,
"Usage: " PROG " --rate BYTES [--chunk BYTES] [--max-seconds S] [--out FILE]\n"
"\n"
"  --rate BYTES      bytes per second to consume; k/M/G suffixes are\n"
"                    powers of 1000 (20M = 20000000 bytes/s)\n"
"  --chunk BYTES     bytes per read() (default 4096, at most 1M)\n"
"  --max-seconds S   stop after S seconds even if input continues\n"
"                    (default 60)\n"
"  --out FILE        write the consumed data to FILE instead of\n"
"                    discarding it\n"
"\n"
"Prints the bytes consumed on standard error.  Exit status: 0 end of\n"
"input, 3 time limit reached, 1 I/O error, 2 bad usage.\n");
}

static int
write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		p += w;
		n -= (size_t)w;
	}
	return (0);
}

int
main(int argc, char **argv)
{
	uint64_t rate = 0, chunk = 4096, total = 0, start, deadline, due, now;
	double max_s = 60, el;
	const char *out = NULL;
	char *buf, *end;
	ssize_t n;
	int a, have_rate = 0, out_fd = -1, ret = 0;

	for (a = 1; a < argc; a++) {
		const char *o = argv[a];

		if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
			usage(stdout);
			return (0);
		}
		if (strcmp(o, "--rate") != 0 && strcmp(o, "--chunk") != 0 &&
		    strcmp(o, "--max-seconds") != 0 && strcmp(o, "--out") != 0)
			bad_usage("unknown argument '%s'", o);
		if (a + 1 >= argc)
			bad_usage("option '%s' needs an argument", o);
		a++;
		if (strcmp(o, "--rate") == 0) {
			if (parse_u64(argv[a], 1, &rate) != 0 || rate == 0)
				bad_usage("invalid --rate '%s' (bytes/s, > 0)", argv[a]);
			have_rate = 1;
		} else if (strcmp(o, "--chunk") == 0) {
			if (parse_u64(argv[a], 1, &chunk) != 0 || chunk == 0 ||
			    chunk > CHUNK_MAX)
				bad_usage("invalid --chunk '%s' (1 to 1M bytes)", argv[a]);
		} else if (strcmp(o, "--max-seconds") == 0) {
			errno = 0;
			max_s = strtod(argv[a], &end);
			if (errno != 0 || end == argv[a] || *end != '\0' ||
			    !(max_s > 0 && max_s <= 1e6))
				bad_usage("invalid --max-seconds '%s' (> 0)", argv[a]);
		} else
			out = argv[a];
	}
	if (!have_rate)
		bad_usage("%s", "--rate is required");

	if (out != NULL) {
		out_fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out_fd < 0) {
			fprintf(stderr, PROG ": cannot create %s: %s\n", out,
			    strerror(errno));
			return (1);
		}
	}
	buf = malloc((size_t)chunk);
	if (buf == NULL) {
		fprintf(stderr, PROG ": out of memory\n");
		return (1);
	}

	start = now_ns();
	deadline = start + (uint64_t)(max_s * 1e9);
	for (;;) {
		/*
		 * Do not read the next chunk before the bytes consumed so
		 * far are "due" at the rate: in the meantime the pipe fills
		 * and the writer blocks.
		 */
		due = start + total / rate * 1000000000ULL +
		    total % rate * 1000000000ULL / rate;
		if (due > deadline) {
			sleep_until(deadline);
			ret = 3;
			break;
		}
		sleep_until(due);
		now = now_ns();
		if (now >= deadline) {
			ret = 3;
			break;
		}
		n = read(STDIN_FILENO, buf, (size_t)chunk);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, PROG ": read error: %s\n",
			    strerror(errno));
			ret = 1;
			break;
		}
		if (n == 0)
			break;
		if (out_fd >= 0 && write_all(out_fd, buf, (size_t)n) != 0) {
			fprintf(stderr, PROG ": error writing %s: %s\n", out,
			    strerror(errno));
			ret = 1;
			break;
		}
		total += (uint64_t)n;
	}
	if (out_fd >= 0 && close(out_fd) != 0 && ret == 0) {
		fprintf(stderr, PROG ": error writing %s: %s\n", out,
		    strerror(errno));
		ret = 1;
	}
	el = (double)(now_ns() - start) / 1e9;
	fprintf(stderr, PROG ": consumed %llu bytes in %.3f s (%.0f bytes/s)%s\n",
	    (unsigned long long)total, el, el > 0 ? (double)total / el : 0.0,
	    ret == 3 ? ", time limit reached" : "");
	free(buf);
	return (ret);
}
