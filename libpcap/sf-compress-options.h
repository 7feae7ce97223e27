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
 * Compressed savefiles: the dump options that pcap_dump_options_*()
 * set (sf-compress-options.c) and a dumper is opened with.
 */

#ifndef sf_compress_options_h
#define	sf_compress_options_h

#include <stddef.h>

#include "sf-compress-encoder.h"

struct pcap_dump_options {
	/* The container's encoder; pcapint_sfc_store for none. */
	const struct pcapint_sfc_encoder *codec;
	int	level;
	size_t	block_size;
	int	block_size_set;	/* by pcap_dump_options_set_block_size() */
#ifdef SFC_WRITER_THREAD
	size_t	ring_size;	/* writer thread's ring; 0: no thread */
	int	cpu;		/* CPU to pin the writer to; -1: none */
	int	nice_incr;	/* how much nicer the writer runs; 0: same */
#endif
#ifdef SFC_ADAPTIVE_LEVEL
	int	adaptive;	/* the dumper picks the level ("zstd:auto") */
#endif
};

#endif
