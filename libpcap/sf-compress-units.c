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
 * Compressed savefiles: a reader's units, see sf-compress-units.h.
 */

#include <config.h>

#include "ftmacros.h"	/* fopencookie() */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcap-int.h"
#include "sf-compress.h"
#include "sf-compress-units.h"

/*
 * Whether the raw file can seek (a file, not a pipe); asked once.
 */
int
pcapint_sfc_raw_seekable(struct sfc_reader *r)
{
	off_t here;

	if (r->seekable == 0) {
		here = ftello(r->in.raw);
		r->seekable = r->raw_base >= 0 && here >= 0 &&
		    fseeko(r->in.raw, here, SEEK_SET) == 0 ? 1 : -1;
	}
	return (r->seekable > 0);
}

/*
 * A seek table's offsets are trusted to seek without decompressing; so
 * each unit read whole is held against its entry, and a table that
 * disagrees with what the unit held makes the read fail rather than
 * let a seek land at the wrong place.  Only the units read can be
 * checked: a seek trusts the sizes of the units it skips.
 */
int
pcapint_sfc_check_unit(struct sfc_reader *r, int64_t coff, int64_t start,
    int64_t end)
{
	size_t lo, hi, mid;

	if (!r->table_used)
		return (0);
	lo = 0;
	hi = r->nunits;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->units[mid].coff < coff)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* The last entry is the table itself, a unit of no data. */
	if (lo < r->nunits && r->units[lo].coff == coff &&
	    r->units[lo].uoff == start &&
	    end == (lo + 1 < r->nunits ? r->units[lo + 1].uoff : start))
		return (0);
	r->err = EBADMSG;
	snprintf(r->errmsg, sizeof(r->errmsg),
	    "corrupt %s compressed file: its seek table does not match the block at byte offset %lld",
	    r->name, (long long)coff);
	errno = r->err;
	return (-1);
}

/*
 * A unit starts at coff in the compressed file and uoff in the stream.
 * Units are met in order, again after a seek backwards, so a unit past
 * the last one noted is new.  Without memory for the note, a seek
 * starts from an earlier unit.
 */
void
pcapint_sfc_note_unit(struct sfc_reader *r, int64_t coff, int64_t uoff)
{
	struct pcapint_sfc_unit_start *nu;
	size_t nsize;

	if (!r->ops->dec_units_independent ||
	    coff <= r->units[r->nunits - 1].coff)
		return;
	if (r->nunits == r->units_size) {
		nsize = 2 * r->units_size;
		nu = realloc(r->units, nsize * sizeof(*nu));
		if (nu == NULL)
			return;
		r->units = nu;
		r->units_size = nsize;
	}
	r->units[r->nunits].coff = coff;
	r->units[r->nunits].uoff = uoff;
	r->nunits++;
}

/*
 * Start reading again at a unit start: the compressed file seeks there
 * and a new decoder begins.  0, or -1 with errno set.
 */
int
pcapint_sfc_restart_at(struct sfc_reader *r,
    const struct pcapint_sfc_unit_start *u)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	void *dec;

	if (fseeko(r->in.raw, (off_t)(r->raw_base + u->coff), SEEK_SET) != 0)
		return (-1);
	dec = r->ops->dec_create(ebuf);
	if (dec == NULL) {
		errno = ENOMEM;
		return (-1);
	}
	r->ops->dec_free(r->dec);
	r->dec = dec;
	r->in.pos = r->in.len = 0;
	r->in.off = u->coff;
	r->in.eof = 0;
	r->in.ioerr = 0;
	r->hold_pos = r->hold_len = 0;
	r->hold_uoff = u->uoff;
	r->streaming = 0;
	r->err = 0;
	r->truncated = 0;
	r->errmsg[0] = '\0';
	r->past_end = 0;
	r->resumed = 0;
	r->upos = u->uoff;
	return (0);
}
