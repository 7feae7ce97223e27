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
