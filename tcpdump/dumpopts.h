/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Savefile options that go to libpcap's dumper options (--compress,
 * --writer-cpu, --writer-ring), and closing savefiles: at exit, at a -C
 * or -G rotation, with -z on each file closed.  See dumpopts.c.
 */

#ifndef dumpopts_h
#define	dumpopts_h

#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
extern pcap_dump_options_t *dump_options;	/* NULL: a plain dumper */
extern int dumpopts_compress(const char *, char *);
#else
#define	dump_options				NULL
#define	pcap_dump_open_with_options(p, f, o)	pcap_dump_open(p, f)
#define	pcap_dump_fopen_with_options(p, fp, o)	pcap_dump_fopen(p, fp)
#endif

#ifdef HAVE_PCAP_DUMP_OPTIONS_SET_WRITER_THREAD
extern int dumpopts_writer(int, const char *, char *);
#endif

/* The option checks that need to know whether -w was given. */
extern int dumpopts_check(int, int, int, char *);

/*
 * Where the current dumper and its file name live, and what to run on
 * each file once it is complete (-z); names_in_use is how many file
 * names -C and -W cycle through (0: names are not reused).
 */
extern void dumpopts_setup(const char *, pcap_dumper_t **, char **,
    void (*)(const char *), int);

/*
 * Close the dumper *pdd, of file name; last is 0 at a rotation, 1 at the
 * end of the capture.  -1 if writing this file or an earlier one failed.
 */
extern int dumpopts_close(pcap_dumper_t **, const char *, int);

/* Set by the SIGUSR2 handler, acted on by dumpopts_flush_if_asked(). */
extern volatile sig_atomic_t dumpopts_flush_requested;
extern void dumpopts_flush_if_asked(pcap_dumper_t *);

/* On every exit path: finish what dumpopts_close() left. */
extern void dumpopts_exit(void);

#endif
