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
 * Compressed savefiles, writing: the interface between the dumper
 * (sf-compress-write.c) and the containers' encoders, one file each:
 * sf-compress-zlib-encode.c (gzip), sf-compress-lz4-encode.c (LZ4
 * frames), sf-compress-zstd-encode.c (zstd frames); the "store"
 * container (no codec) and the table of encoders are in
 * sf-compress-write.c.  The containers themselves, with their names
 * and magic numbers, are those of the reader (sf-compress.h).
 */

#ifndef sf_compress_encoder_h
#define	sf_compress_encoder_h

#include "sf-compress.h"
#ifdef SFC_ADAPTIVE_LEVEL

struct pcapint_sfc_adapt_ladder;
#endif

/*
 * A container's encoder: how blocks are written into it.  Every
 * container, the "store" one that does not compress included, has a
 * full set of these, so the dumper has no special case.
 */
struct pcapint_sfc_encoder {
	enum pcapint_sfc_container_id container;
	int		compresses;	/* 0 for "store" */
	int		min_level;
	int		max_level;
	int		default_level;

	/*
	 * enc_create() returns codec state for blocks of at most
	 * block_size bytes (with errbuf filled in on failure);
	 * enc_bound() is the largest output enc_block() may produce for
	 * one such block, header and trailer included.  enc_block()
	 * compresses one block into out as one self-contained unit of
	 * its container (a gzip member, an LZ4 or a zstd frame), points
	 * *res at the result and returns its length, or -1 with errbuf
	 * filled in; with try_codec zero it must not spend CPU on
	 * compression and store the data.  *stored is set
	 * when the block went out uncompressed.  enc_header() and
	 * enc_trailer() write a stream header or end marker and return
	 * its length, 0 if the container has none.
	 */
	void	*(*enc_create)(int level, size_t block_size, char *errbuf);
	void	(*enc_free)(void *);
	size_t	(*enc_bound)(void *, size_t);
	ssize_t	(*enc_block)(void *, const u_char *, size_t, u_char *, size_t,
		    int try_codec, int *stored, const u_char **res,
		    char *errbuf);
	size_t	(*enc_header)(void *, u_char *);
	size_t	(*enc_trailer)(void *, u_char *);
#define	SFC_MAX_HEADER	64

	/*
	 * Set the level of the blocks enc_block() compresses from now
	 * on; cheap when the level does not change.  The bound of enc_bound() holds
	 * at every level.  Returns 0, or -1 with errbuf filled in.  NULL
	 * for a container with a single level (store).
	 */
	int	(*enc_level)(void *, int level, char *errbuf);
#ifdef SFC_ADAPTIVE_LEVEL

	/*
	 * The codec's levels from the cheapest to the most thorough, for
	 * a dumper whose level adapts (sf-compress-adapt.c); NULL for
	 * a container with a single level.
	 */
	const struct pcapint_sfc_adapt_ladder *ladder;
#endif
};

/*
 * The encoder of each container, NULL where its codec was not built,
 * in the containers' order; and the container's name, for messages.
 */
extern const struct pcapint_sfc_encoder *const
    pcapint_sfc_encoders[SFC_NCONTAINERS];

#define	SFC_ENCODER_NAME(e)	(pcapint_sfc_containers[(e)->container].name)

/*
 * The first encoder built that compresses, or store's if there is
 * none: what a dumper writes when its options name no codec.
 */
extern const struct pcapint_sfc_encoder *pcapint_sfc_default_encoder(void);

extern const struct pcapint_sfc_encoder pcapint_sfc_store;
#ifdef HAVE_ZLIB
extern const struct pcapint_sfc_encoder pcapint_sfc_gzip_encoder;
#endif
#ifdef HAVE_LIBLZ4
extern const struct pcapint_sfc_encoder pcapint_sfc_lz4_encoder;
#endif
#ifdef HAVE_LIBZSTD
extern const struct pcapint_sfc_encoder pcapint_sfc_zstd_encoder;
#endif
#ifdef HAVE_LIBLZO2
extern const struct pcapint_sfc_encoder pcapint_sfc_lzo_encoder;
#endif

/*
 * Little and big endian stores for the encoders (extract.h has the
 * loads, EXTRACT_BE_U_4() and friends, but no stores).
 */
extern void pcapint_sfc_put_be32(u_char *, uint32_t);
extern void pcapint_sfc_put_le32(u_char *, uint32_t);

/* enc_header() and enc_trailer() of a container that has neither. */
extern size_t pcapint_sfc_no_header(void *, u_char *);

/* max(a, b) of two sizes, for the encoders' bounds. */
#define	SFC_MAX_SIZE(a, b)	((a) > (b) ? (a) : (b))

/*
 * Called by pcap_dump_flush(): writes out the partly filled block of a
 * compressed dumper; returns -1 if the dumper has a sticky error, 0
 * otherwise (including for a plain dumper).
 */
extern int pcapint_dump_compress_flush(FILE *);

/*
 * Called by pcap_dump() with a record's header, as it goes on disk, and
 * data: a compressed dumper takes the record directly, without stdio,
 * and 0 is returned; -1 means fp is a plain dumper (or one that is in
 * the middle of a record someone fwrite() in parts) and pcap_dump()
 * writes the record itself.
 */
extern int pcapint_dump_compress_record(FILE *, const void *,
    const u_char *, bpf_u_int32);

#endif
