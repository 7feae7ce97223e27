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
 *
 * Compressed savefiles: a dumper's writer thread, sf-compress-thread.c;
 * sf-compress-nothread.c has what a build without pthreads does
 * instead.
 */

#ifndef sf_compress_thread_h
#define	sf_compress_thread_h

#include "sf-compress-pipeline.h"

struct pcapint_sfc_thr;

/*
 * Start the writer thread of a dumper whose options ask for one, once
 * the file header is in the first block, so that the ring carries
 * nothing but records; from then on the thread owns pl.  0 with *tp
 * NULL if the options ask for none, or -1 with p's errbuf filled in.
 */
extern int pcapint_sfc_thr_start(struct pcapint_sfc_thr **tp,
    struct pcapint_sfc_pipeline *pl, pcap_t *p,
    const struct pcap_dump_options *opts);

/*
 * On the application's thread: bytes fwrite() to the dumper, a whole
 * record from pcap_dump() (0 taken, -1 to go the long way, through
 * fwrite()), a flush (0 or -1 after an error) and the statistics the
 * thread keeps.
 */
extern void pcapint_sfc_thr_write(struct pcapint_sfc_thr *, const u_char *,
    size_t);
extern int pcapint_sfc_thr_record(struct pcapint_sfc_thr *, const void *,
    const u_char *, bpf_u_int32);
extern int pcapint_sfc_thr_flush(struct pcapint_sfc_thr *);
extern void pcapint_sfc_thr_stats(struct pcapint_sfc_thr *,
    struct pcap_dump_stats *);

/*
 * Drain the ring, join the thread and free it, after which the calling
 * thread owns the pipeline again.
 */
extern void pcapint_sfc_thr_stop(struct pcapint_sfc_thr *);

#endif
