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
 * Compressed savefiles: seeking in the decompressed stream behind
 * pcap_file().
 *
 * The stream seeks as the file would (ftell(), fseek() and rewind() on
 * pcap_file() see uncompressed offsets), where the compressed file can
 * seek: programs rewind a capture, or search it by time.  The reader
 * notes where each unit starts, in the compressed file and in the
 * uncompressed stream, as it goes, and a seek backwards starts a new
 * decoder at the unit that holds the target, or at the beginning of
 * the file where units do not stand alone, then decompresses forward
 * to the target.  A pipe cannot seek, and the stream says so (ESPIPE)
 * as a pipe of an uncompressed capture does.
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
#include "sf-compress-decompress.h"
#include "sf-compress-seek.h"

/*
 * Drop what lies between the position and target, or up to the end of
 * the stream, which is then known.  0, or -1 with errno set.
 */
static int
sfc_skip_to(struct sfc_reader *r, int64_t target)
{
	char scratch[8192];
	ssize_t n;
	size_t k;

	while (r->upos < target) {
		if (r->hold_pos < r->hold_len) {
			k = r->hold_len - r->hold_pos;
			if ((int64_t)k > target - r->upos)
				k = (size_t)(target - r->upos);
			r->hold_pos += k;
			r->upos += (int64_t)k;
			continue;
		}
		k = sizeof(scratch);
		if ((int64_t)k > target - r->upos)
			k = (size_t)(target - r->upos);
		n = pcapint_sfc_cookie_read(r, scratch, k);
		if (n < 0 && r->truncated) {
			/*
			 * The file ends inside a unit: the stream ends
			 * where decoding did, as a plain savefile cut
			 * short ends where its bytes do.
			 */
			r->end_uoff = r->upos;
			break;
		}
		if (n < 0)
			return (-1);
		if (n == 0) {
			r->end_uoff = r->upos;
			break;
		}
	}
	return (0);
}

/*
 * The last unit that starts at or before target and where a new
 * decoder may begin; the file's first unit if units do not stand
 * alone.
 */
static const struct pcapint_sfc_unit_start *
sfc_unit_before(const struct sfc_reader *r, int64_t target)
{
	size_t lo, hi, mid;

	if (!r->ops->dec_units_independent)
		return (&r->units[0]);
	lo = 0;
	hi = r->nunits;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (r->units[mid].uoff <= target)
			lo = mid;
		else
			hi = mid;
	}
	return (&r->units[lo]);
}

/*
 * Whether a seek table agrees with what the stream has read: every unit
 * already met starts where the table says, and the length, if known,
 * is the table's.  A table that lies about a unit the stream has read is
 * not used; one that lies only about units not yet read is found out
 * when they are (pcapint_sfc_check_unit()), unless a seek skips them.
 */
static int
sfc_table_agrees(const struct sfc_reader *r,
    const struct pcapint_sfc_unit_start *u, size_t n, int64_t end)
{
	size_t i, j;

	if (r->end_uoff >= 0 && r->end_uoff != end)
		return (0);
	for (i = 0, j = 0; i < r->nunits; i++) {
		while (j < n && u[j].coff < r->units[i].coff)
			j++;
		if (j == n || u[j].coff != r->units[i].coff ||
		    u[j].uoff != r->units[i].uoff)
			return (0);
	}
	return (1);
}

/*
 * A file that ends with a seek table tells where every unit starts and
 * how long the stream is, without decompressing anything.  Looked for
 * once, at the first seek that is not a mere ftell().
 */
static void
sfc_use_seek_table(struct sfc_reader *r)
{
	struct pcapint_sfc_unit_start *u;
	size_t n;
	int64_t end;

	r->table_tried = 1;
	if (!r->ops->seek_table || !r->ops->dec_units_independent ||
	    pcapint_sfc_seektable_read(r->in.raw, r->raw_base, &u, &n,
	    &end) != 0)
		return;
	if (!sfc_table_agrees(r, u, n, end)) {
		free(u);
		return;
	}
	free(r->units);
	r->units = u;
	r->nunits = r->units_size = n;
	r->end_uoff = end;
	r->table_used = 1;
}

int
pcapint_sfc_cookie_seek(void *cookie, SFC_COOKIE_OFF_T *offset, int whence)
{
	struct sfc_reader *r = cookie;
	int64_t from, target, base;
	int invalid;

	/*
	 * Past a skipped damaged block, offsets are short by what it
	 * held, which is not known: they are no longer those of the
	 * uncompressed file, and the stream stops seeking, as a pipe.
	 */
	if (!pcapint_sfc_raw_seekable(r) || r->damaged != 0) {
		errno = ESPIPE;
		return (-1);
	}
	/* ftell(): the position, with nothing to decompress. */
	if (whence == SEEK_CUR && *offset == 0) {
		*offset = r->upos;
		return (0);
	}
	if (!r->table_tried)
		sfc_use_seek_table(r);
	from = r->upos;
	switch (whence) {

	case SEEK_SET:
		base = 0;
		break;

	case SEEK_CUR:
		base = from;
		break;

	case SEEK_END:
		/* Learn the length by reading to the end, once. */
		if (r->end_uoff < 0) {
			if (r->err == 0 && !r->past_end) {
				if (sfc_skip_to(r, INT64_MAX) != 0)
					return (-1);
			} else if (pcapint_sfc_restart_at(r, sfc_unit_before(r,
			    r->upos)) != 0 || sfc_skip_to(r, INT64_MAX) != 0)
				return (-1);
		}
		base = r->end_uoff;
		break;

	default:
		errno = EINVAL;
		return (-1);
	}
	/*
	 * A target before the start, or past what an offset holds, fails
	 * with EINVAL and leaves the position where it was, as a file's
	 * would; the read to the end that SEEK_END needed is undone.
	 */
	invalid = 0;
	if ((*offset > 0 && base > INT64_MAX - (int64_t)*offset) ||
	    base + (int64_t)*offset < 0)
		invalid = EINVAL;
	target = invalid != 0 ? from : base + (int64_t)*offset;
	if (invalid != 0 && r->upos == from) {
		errno = invalid;
		return (-1);
	}
	if (r->err == 0 && !r->past_end) {
		/*
		 * In the unit at hand (while its bytes are the ones being
		 * handed out), or ahead: no new decoder.
		 */
		if (r->hold_uoff + (int64_t)r->hold_pos == r->upos &&
		    target >= r->hold_uoff &&
		    target <= r->hold_uoff + (int64_t)r->hold_len) {
			r->hold_pos = (size_t)(target - r->hold_uoff);
			r->upos = target;
			goto done;
		}
		if (target >= r->upos &&
		    sfc_unit_before(r, target)->uoff <= r->upos)
			goto forward;
	}
	if (r->end_uoff >= 0 && target >= r->end_uoff) {
		/* Past the end: no need to decompress anything. */
		r->upos = target;
		r->past_end = 1;
		goto done;
	}
	if (pcapint_sfc_restart_at(r, sfc_unit_before(r, target)) != 0)
		return (-1);
forward:
	if (sfc_skip_to(r, target) != 0)
		return (-1);
	if (r->upos < target) {
		/* As a file does, let the position go past the end. */
		r->upos = target;
		r->past_end = 1;
	}
done:
	if (invalid != 0) {
		errno = invalid;
		return (-1);
	}
	*offset = target;
	return (0);
}
