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
 * Compressed savefiles: compressing a block, see sf-compress-block.h.
 */

#include <config.h>

#include <string.h>
#include <time.h>

#include "pcap-int.h"
#include "sf-compress-block.h"

uint64_t
pcapint_sfc_clock_ns(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts) != 0)
		return (0);
	return (SFC_TIMESPEC_NS(ts));
}

/*
 * The CPU time of the calling thread, which is what the codec costs.
 * Where there is no such clock the codec seems free; Linux, the BSDs
 * and macOS all have it.
 */
#ifdef CLOCK_THREAD_CPUTIME_ID
#define	SFC_THREAD_CPU_NS()	pcapint_sfc_clock_ns(CLOCK_THREAD_CPUTIME_ID)
#else
#define	SFC_THREAD_CPU_NS()	0
#endif

void
pcapint_sfc_block_compress(const struct pcapint_sfc_encoder *codec,
    struct pcapint_sfc_block *b)
{
	uint64_t start;

	b->stored = 0;
	b->ebuf[0] = '\0';
	b->res = b->out;
	b->cpu_ns = 0;
	b->cold = 0;
	if (b->try_codec && codec->enc_level != NULL &&
	    codec->enc_level(b->enc, b->level, b->ebuf) == -1) {
		b->out_len = -1;
		return;
	}
	start = SFC_THREAD_CPU_NS();
	b->out_len = codec->enc_block(b->enc, b->in, b->fill, b->out,
	    b->out_size, b->try_codec, &b->stored, &b->res, b->ebuf);
	b->cpu_ns = SFC_THREAD_CPU_NS() - start;
	/*
	 * The first block an encoder compresses at a level costs more
	 * than the level does: the codec sets its tables up for the new
	 * parameters, and the pages of larger tables are touched for the
	 * first time.  Marked, it is left out of what the level costs.
	 */
	if (b->try_codec) {
		b->cold = b->warm_level != b->level;
		b->warm_level = b->level;
	}
}
