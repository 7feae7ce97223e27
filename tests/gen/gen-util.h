/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Small helpers shared by the test tools in tests/gen: big-endian
 * stores, a monotonic clock for pacing, number parsing, and the
 * bad-usage exit.  Define
 * PROG (the tool's name) before including this file.
 */

#ifndef gen_util_h
#define	gen_util_h

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline void
put16(unsigned char *p, unsigned int v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static inline void
put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static inline uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}

/* EINTR is fine: callers re-check the clock (and their stop flag). */
static inline void
sleep_until(uint64_t t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(t / 1000000000ULL);
	ts.tv_nsec = (long)(t % 1000000000ULL);
	(void)clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/*
 * Parse an unsigned decimal number with an optional k/M/G (powers of
 * 1000) suffix.  strtoull() alone would accept "-1", "12abc" and
 * overflow silently.
 */
static inline int
parse_u64(const char *s, int allow_suffix, uint64_t *out)
{
	unsigned long long v;
	uint64_t mult;
	char *end;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0)
		return (-1);
	mult = 1;
	if (allow_suffix && *end != '\0' && end[1] == '\0') {
		switch (*end) {
		case 'k': case 'K': mult = 1000ULL; end++; break;
		case 'm': case 'M': mult = 1000000ULL; end++; break;
		case 'g': case 'G': mult = 1000000000ULL; end++; break;
		}
	}
	if (*end != '\0')
		return (-1);
	if (v != 0 && mult > UINT64_MAX / v)
		return (-1);
	*out = (uint64_t)v * mult;
	return (0);
}

#ifdef PROG
/* Exit status 2, the tools' convention for bad usage. */
static inline void
bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '" PROG " --help' for more information.\n");
	exit(2);
}
#endif

#endif
