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
 * Compressed savefiles: reading past a damaged unit, see
 * sf-compress-resync.c.
 */

#ifndef sf_compress_resync_h
#define	sf_compress_resync_h

/*
 * A held unit was damaged: 1 when reading goes on at the next unit, 0
 * when it cannot, -1 when no unit follows.
 */
extern int pcapint_sfc_skip_damaged(struct sfc_reader *, const char *ebuf);

/*
 * A unit was held whole: 0, or -1 with the sticky error set when it
 * follows a skipped unit and does not start and end at a record.
 */
extern int pcapint_sfc_resync_walk(struct sfc_reader *);

/*
 * A unit too large to hold is streamed: 0, or -1 with the sticky error
 * set when it follows a skipped unit.
 */
extern int pcapint_sfc_resync_unheld(struct sfc_reader *);

/* The end of a stream in which damaged units were skipped: an error. */
extern ssize_t pcapint_sfc_damage_end(struct sfc_reader *);

#endif
