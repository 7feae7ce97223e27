/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * TAP-like output for the unit test programs that tests/lib.sh's
 * t_relay reads: check() prints "ok N - ..." or "not ok N - ..." and
 * counts; tap_end() prints the totals and gives main()'s exit status.
 * Include once, from the program's main file.
 */

#ifndef sluice_lib_tap_h
#define	sluice_lib_tap_h

#include <stdarg.h>
#include <stdio.h>

static int checks, failures;

static void
check(int ok, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
check(int ok, const char *fmt, ...)
{
	va_list ap;

	checks++;
	if (!ok)
		failures++;
	printf("%s %d - ", ok ? "ok" : "not ok", checks);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static int
tap_end(void)
{
	printf("# %d checks, %d failed\n", checks, failures);
	return (failures != 0);
}

#endif
