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
 * The "store" container of compressed savefiles: no codec at all.  The
 * dumper still collects records into blocks and writes each block with
 * one write(), and the file is a plain pcap savefile.  A block goes out
 * from where it was collected, without a copy.  There is nothing to
 * read back here: a plain savefile is read by sf-pcap.c.
 */

#include <config.h>

#include "pcap-int.h"
#include "sf-compress-encoder.h"

/* No state; a non-NULL pointer says the creation succeeded. */
static int store_state;

static void *
store_enc_create(int level _U_, size_t block_size _U_, char *errbuf _U_)
{
	return (&store_state);
}

static void
store_enc_free(void *state _U_)
{
}

/* Nothing is written to the output buffer: it needs no room. */
static size_t
store_enc_bound(void *state _U_, size_t len _U_)
{
	return (0);
}

static ssize_t
store_enc_block(void *state _U_, const u_char *in, size_t len,
    u_char *out _U_, size_t outsize _U_, int try_codec _U_, int *stored,
    const u_char **res, char *errbuf _U_)
{
	*stored = 1;
	*res = in;
	return ((ssize_t)len);
}

const struct pcapint_sfc_encoder pcapint_sfc_store = {
	SFC_STORE, 0,
	0, 0, 0,
	store_enc_create, store_enc_free, store_enc_bound, store_enc_block,
	pcapint_sfc_no_header, pcapint_sfc_no_header, NULL,
#ifdef SFC_ADAPTIVE_LEVEL
	NULL		/* one level: no ladder */
#endif
};
