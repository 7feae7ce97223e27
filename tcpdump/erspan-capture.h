/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * tcpdump --erspan[=SESSION] (erspan-capture.c).  tcpdump.c includes
 * this after <pcap.h>.  The functions exist in every build, so tcpdump.c
 * calls them without #ifdefs: with a libpcap that has no ERSPAN mode
 * (no HAVE_PCAP_ERSPAN_STATS), erspan_option() refuses the option and
 * the others do nothing.
 */

#ifndef erspan_capture_h
#define erspan_capture_h

/*
 * How a failure is reported: tcpdump's error(), which prints the
 * message and exits.
 */
typedef void (*erspan_fail_fn)(const char *, ...);

/*
 * --erspan[=SESSION] was given with ARG (NULL without "=SESSION"), and
 * yflag_dlt is the link-layer type -y asked for so far (-1 if none).
 * Returns the link-layer type to select, DLT_ERSPAN.
 */
int	erspan_option(const char *arg, int yflag_dlt, erspan_fail_fn fail);

/*
 * A handle was opened (live, savefile or dead); with --erspan, put it
 * in ERSPAN mode with the session asked for.  yflag_dlt is as above,
 * after all the options.
 */
void	erspan_open(pcap_t *p, int yflag_dlt, erspan_fail_fn fail);

/*
 * Print, with the other statistics, how many frames the handle
 * skipped as not ERSPAN, if it is in ERSPAN mode.
 */
void	erspan_print_stats(pcap_t *p);

#endif /* erspan_capture_h */
