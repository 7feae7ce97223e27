/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */

/*
 * Opening, flushing and closing savefiles: at a -C or -G rotation, at
 * the end of the capture and on every exit path, with -z run on each
 * file once it is complete, and the writer's figures printed at exit
 * (dumpfile.c).  The functions exist in every build, so tcpdump.c calls
 * them without #ifdefs; with a libpcap that has no dumper options they
 * open and close plain dumpers as stock tcpdump does.
 */

#ifndef dumpfile_h
#define	dumpfile_h

/* pcap_dump_open() and pcap_dump_fopen(), with the savefile options. */
extern pcap_dumper_t *dumpfile_open(pcap_t *, const char *);
extern pcap_dumper_t *dumpfile_fopen(pcap_t *, FILE *);

/*
 * Where the current dumper and its file name live, and what to run on
 * each file once it is complete (-z; NULL for nothing); names_in_use is
 * how many file names -C and -W cycle through (0: names are not reused).
 */
extern void dumpfile_setup(pcap_dumper_t **, char **,
    void (*)(const char *), int names_in_use);

/*
 * Close the dumper *pdd, of file name; last is 0 at a rotation, 1 at the
 * end of the capture.  -1 if writing this file or an earlier one failed.
 */
extern int dumpfile_close(pcap_dumper_t **pdd, const char *name, int last);

/* Set by the SIGUSR2 handler, acted on by dumpfile_flush_if_asked(). */
extern volatile sig_atomic_t dumpfile_flush_requested;
extern void dumpfile_flush_if_asked(pcap_dumper_t *);

/* On every exit path: finish what dumpfile_close() left. */
extern void dumpfile_exit(void);

#endif /* dumpfile_h */
