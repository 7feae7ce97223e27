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
 * --disk-budget=SIZE[k|m|g]: keep this run's savefiles within SIZE bytes
 * by deleting the oldest at rotations; file_size is -C's size in bytes,
 * or 0.  0, or -1 with the message in ebuf.
 */
extern int dumpfile_budget(const char *arg, int64_t file_size, char *ebuf);

/*
 * Close the dumper *pdd, of file name; last is 0 at a rotation, 1 at the
 * end of the capture.  -1 if writing this file or an earlier one failed.
 */
extern int dumpfile_close(pcap_dumper_t **pdd, const char *name, int last);

/*
 * At a rotation, the next file could not be opened with dumpfile_open().
 * 0 if the reason may pass (a read-only or full file system, an I/O
 * error): it has been said, the capture goes on, and until
 * dumpfile_reopen() opens the file packets are lost; -1 if the run must
 * end, the message printed.
 */
extern int dumpfile_open_failed(pcap_t *);

/*
 * For each packet while dumpfile_open_failed() left no file: the dumper
 * once the file named name opens (tried once a second), or NULL, the
 * packet counted as lost.
 */
extern pcap_dumper_t *dumpfile_reopen(pcap_t *, const char *name);

/*
 * After each packet handed to the dumper: flush if SIGUSR2 asked
 * (dumpfile_flush_requested), and say when writing stops for lack of
 * space and when it resumes.
 */
extern volatile sig_atomic_t dumpfile_flush_requested;
extern void dumpfile_after_packet(pcap_dumper_t *);

/*
 * On every exit path: finish what dumpfile_close() left; -1 if writing
 * a file failed.
 */
extern int dumpfile_exit(void);

#endif /* dumpfile_h */
