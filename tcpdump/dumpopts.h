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
 * SIZE[k|m|g] (KiB, MiB, GiB) in bytes, for options that take a size:
 * 0, or -1 if arg is not that or the bytes exceed max.
 */
extern int dumpopts_parse_size(const char *arg, uint64_t max,
    uint64_t *bytes);

/*
 * After all the options: refuse what does not go together, and decide
 * whether the dumper gets a writer thread.  have_w: -w was given;
 * offline: packets come from savefiles (-r, -V); packet_buffered: -U;
 * size_rotation: -C's size in bytes, 0 without -C.  With -C, a dumper
 * with options gets blocks of at most a quarter of that size.
 */
extern int dumpopts_check(int have_w, int offline, int packet_buffered,
    int64_t size_rotation, char *ebuf);

#ifdef HAVE_PCAP_DUMP_OPEN_WITH_OPTIONS
/*
 * For dumpfile.c: the options every savefile is opened with (NULL for a
 * plain dumper), and whether they include a writer thread.
 */
extern pcap_dump_options_t *dumpopts_options;
extern int dumpopts_writer_on;
#endif

#endif /* dumpopts_h */
