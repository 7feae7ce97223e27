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
 * Compressed savefiles: reading past a damaged block.  In a file that
 * can seek, a unit that fails its checksum or does not decode is
 * skipped: reading goes on at the next unit, found by its magic number,
 * and the end of the stream becomes an error that counts what was
 * skipped, so that one bad sector costs one block, not the rest of the
 * capture, and the program still learns that something was lost.
 * Only where the units end at records (sf-compress-records.c).
 */

#include <config.h>

#include "ftmacros.h"	/* fopencookie() */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcap-int.h"
#include "sf-compress.h"
#include "sf-compress-units.h"
#include "sf-compress-resync.h"

/*
 * The reader's sticky error for damage, with its message; returns -1.
 */
static ssize_t sfc_damage_error(struct sfc_reader *,
    PCAP_FORMAT_STRING(const char *), ...) PCAP_PRINTFLIKE(2, 3);

static ssize_t
sfc_damage_error(struct sfc_reader *r, const char *fmt, ...)
{
	va_list ap;

	r->err = EBADMSG;
	va_start(ap, fmt);
	(void)vsnprintf(r->errmsg, sizeof(r->errmsg), fmt, ap);
	va_end(ap);
	errno = r->err;
	return (-1);
}

/*
 * The end of a stream in which damaged units were skipped is an error
 * that says so, so that a program that read every intact unit still
 * learns that some were lost.
 */
ssize_t
pcapint_sfc_damage_end(struct sfc_reader *r)
{
	if (r->damaged == 1)
		return (sfc_damage_error(r,
		    "corrupt %s compressed file: %.180s; every other block was read",
		    r->name, r->damage));
	return (sfc_damage_error(r,
	    "corrupt %s compressed file: %.150s, and %lld more bad block%s; every other block was read",
	    r->name, r->damage, (long long)(r->damaged - 1),
	    r->damaged == 2 ? "" : "s"));
}

/*
 * The raw offset of the first unit start at or after from, found by its
 * magic number; -1 if there is none, -2 on a read error.
 */
static int64_t
sfc_find_unit(struct sfc_reader *r, int64_t from)
{
	const char *magic = r->ops->unit_magic;
	size_t mlen = strlen(magic), keep = 0, n, i;
	u_char buf[16384];
	int64_t base = from;	/* raw offset of buf[0] */

	if (fseeko(r->in.raw, (off_t)(r->raw_base + from), SEEK_SET) != 0)
		return (-2);
	for (;;) {
		n = fread(buf + keep, 1, sizeof(buf) - keep, r->in.raw);
		if (n == 0)
			return (ferror(r->in.raw) ? -2 : -1);
		n += keep;
		for (i = 0; i + mlen <= n; i++) {
			if (memcmp(buf + i, magic, mlen) == 0)
				return (base + (int64_t)i);
		}
		/* A magic number may straddle two reads. */
		keep = n < mlen - 1 ? n : mlen - 1;
		memmove(buf, buf + n - keep, keep);
		base += (int64_t)(n - keep);
	}
}

/*
 * Whether reading can go on past a damaged unit here: in a file that
 * can seek, in a container whose units are independent and found by
 * their magic number.
 */
static int
sfc_can_resync(struct sfc_reader *r)
{
	return (r->ops->unit_magic != NULL && r->ops->dec_units_independent &&
	    pcapint_sfc_raw_seekable(r));
}

/*
 * The unit after a skipped one cannot be shown to start at a record:
 * the read ends, as it would have without the skip.  Returns -1.
 */
static int
sfc_refuse_skip(struct sfc_reader *r, const char *why)
{
	if (r->damaged == 1)
		return ((int)sfc_damage_error(r,
		    "corrupt %s compressed file: %.100s; the block after it %.64s, so no more could be read",
		    r->name, r->damage, why));
	return ((int)sfc_damage_error(r,
	    "corrupt %s compressed file: bad block at byte offset %lld (the last of %lld); the block after it %.64s, so no more could be read",
	    r->name, (long long)r->damaged_last, (long long)r->damaged, why));
}

/*
 * A unit was held whole: learn whether it ended at a record (see
 * sf-compress-records.c).  The unit read after a skipped one must both
 * start and end at a record; one that does not shows that this file's
 * units do not follow its records after all, and the read ends there,
 * as it would have without the skip, rather than hand out a record
 * read from the middle of another.  Returns 0, or -1 with the sticky
 * error set.
 */
int
pcapint_sfc_resync_walk(struct sfc_reader *r)
{
	int resumed = r->resumed;

	r->resumed = 0;
	if (!sfc_can_resync(r))
		return (0);
	if (pcapint_sfc_records_walk(&r->records, r->hold, r->hold_len,
	    r->hold_uoff) || !resumed)
		return (0);
	return (sfc_refuse_skip(r, "does not start at a packet record"));
}

/*
 * A unit too large to hold is streamed without being walked, so where
 * records end is no longer known; if it follows a skipped unit, where
 * it starts was never known either, and the read ends.  Returns 0, or
 * -1 with the sticky error set.
 */
int
pcapint_sfc_resync_unheld(struct sfc_reader *r)
{
	int resumed = r->resumed;

	r->resumed = 0;
	pcapint_sfc_records_lost(&r->records);
	if (!resumed)
		return (0);
	return (sfc_refuse_skip(r,
	    "is too large to check that it starts at a packet record"));
}

/*
 * A unit failed its checksum or did not decode.  Units are independent,
 * so where they end at records, reading can go on at the next unit:
 * one bad sector then costs one block, not the rest of the capture.  That every unit read so far ended at a record
 * is the evidence that the next one starts at one; the unit after the
 * skip is checked in turn (pcapint_sfc_resync_walk()).  The unit is
 * found by its magic number, after the damaged unit's start; a false
 * match fails to decode in turn and the search goes on after it.  Only
 * for a unit that was held whole, so that none of its bytes went out,
 * and not for the first unit, which holds the file header that the
 * units after it cannot be read without.
 *
 * Returns 1 when reading goes on at the next unit, 0 when it cannot (the
 * damage is then reported as before), and -1 when no unit follows (the
 * end of the stream, with the damage reported).
 */
int
pcapint_sfc_skip_damaged(struct sfc_reader *r, const char *ebuf)
{
	struct pcapint_sfc_unit_start u;
	int64_t next;

	if (r->streaming || r->hold_uoff == 0 || !r->records.aligned ||
	    !sfc_can_resync(r))
		return (0);
	if (r->damaged == 0 || r->unit_off > r->damaged_last) {
		if (r->damaged == 0)
			snprintf(r->damage, sizeof(r->damage),
			    "bad block at byte offset %lld: %.150s",
			    (long long)r->unit_off, ebuf);
		r->damaged++;
		r->damaged_last = r->unit_off;
	}
	next = sfc_find_unit(r, r->unit_off + 1);
	if (next == -2)
		return (0);
	if (next == -1)
		return (-1);
	u.coff = next;
	u.uoff = r->hold_uoff;
	if (pcapint_sfc_restart_at(r, &u) != 0)
		return (0);
	r->resumed = 1;
	return (1);
}
