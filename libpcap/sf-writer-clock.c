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
 * The clock of the writer thread's timed waits.
 *
 * pthread_cond_timedwait() takes an absolute deadline, on
 * CLOCK_REALTIME unless the condition variable was made for another
 * clock.  When the system time is stepped back, a wait on
 * CLOCK_REALTIME lasts for the step as well: an idle writer would
 * leave records in its ring that long, and a flush would notice a
 * stalled writer only that much later.  Where
 * pthread_condattr_setclock() exists, the waits use CLOCK_MONOTONIC,
 * which is never stepped.
 */

#include <config.h>

#include <pthread.h>
#include <time.h>

#include "sf-writer-clock.h"

#if defined(HAVE_PTHREAD_CONDATTR_SETCLOCK) && defined(CLOCK_MONOTONIC)
/*
 * All of conds[] on CLOCK_MONOTONIC, or none: 0 if so; -1 leaves them
 * uninitialized.
 */
static int
conds_init_monotonic(pthread_cond_t *const conds[], size_t n)
{
	pthread_condattr_t attr;
	size_t i;
	int ok;

	if (pthread_condattr_init(&attr) != 0)
		return (-1);
	ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0;
	for (i = 0; ok && i < n; i++) {
		if (pthread_cond_init(conds[i], &attr) != 0) {
			while (i > 0)
				pthread_cond_destroy(conds[--i]);
			ok = 0;
		}
	}
	pthread_condattr_destroy(&attr);
	return (ok ? 0 : -1);
}
#endif

clockid_t
pcapint_writer_conds_init(pthread_cond_t *const conds[], size_t n)
{
	size_t i;

#if defined(HAVE_PTHREAD_CONDATTR_SETCLOCK) && defined(CLOCK_MONOTONIC)
	if (conds_init_monotonic(conds, n) == 0)
		return (CLOCK_MONOTONIC);
#endif
	for (i = 0; i < n; i++)
		pthread_cond_init(conds[i], NULL);
	return (CLOCK_REALTIME);
}

void
pcapint_writer_deadline(clockid_t clock, struct timespec *deadline, long ms)
{
	clock_gettime(clock, deadline);
	deadline->tv_sec += ms / 1000;
	deadline->tv_nsec += (ms % 1000) * 1000000L;
	if (deadline->tv_nsec >= 1000000000L) {
		deadline->tv_sec++;
		deadline->tv_nsec -= 1000000000L;
	}
}
