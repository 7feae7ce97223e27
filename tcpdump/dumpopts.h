/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * The savefile options that go to libpcap's dumper options: --compress,
 * --writer-cpu and --writer-ring (dumpopts.c).  The functions exist in
 * every build: with a libpcap that has no dumper options they refuse the
 * options with a message, so tcpdump.c calls them without #ifdefs.
 */

#ifndef dumpopts_h
#define	dumpopts_h

/*
 * --compress[=ALGO[:LEVEL]], with ARG NULL for the option alone.
 * 0, or -1 with the reason in ebuf.
 */
extern int dumpopts_compress(const char *arg, char *ebuf);

/*
 * --writer-cpu=N (cpu != 0) or --writer-ring=SIZE (cpu == 0).  0, or -1
 * with the whole message, the option's name included, in ebuf.
 */
extern int dumpopts_writer(int cpu, const char *arg, char *ebuf);

/*
 * After all the options: refuse what does not go together, and decide
 * whether the dumper gets a writer thread.  have_w: -w was given;
 * offline: packets come from savefiles (-r, -V); packet_buffered: -U.
 */
extern int dumpopts_check(int have_w, int offline, int packet_buffered,
    char *ebuf);

#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
/*
 * For dumpfile.c: the options every savefile is opened with (NULL for a
 * plain dumper), and whether they include a writer thread.
 */
extern pcap_dump_options_t *dumpopts_options;
extern int dumpopts_writer_on;
#endif

#endif /* dumpopts_h */
