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
 * Where a writer thread runs and how nicely; see sf-writer-sched.c.
 */

#ifndef sf_writer_sched_h
#define	sf_writer_sched_h

/*
 * 0 if the writer thread can lower its priority by nice_incr (1 to 19;
 * 0 leaves it alone), -1 with errbuf filled in otherwise.
 */
int	pcapint_writer_check_nice(int nice_incr, char *errbuf);

/*
 * Name the calling thread (15 characters at most), where the platform
 * has a way to; for threads of ours a user may see in top -H.
 */
void	pcapint_writer_set_name(const char *name);

/*
 * 0 if the writer thread can be pinned to that CPU (it exists and this
 * process may run on it), -1 with errbuf filled in otherwise.
 */
int	pcapint_writer_check_cpu(int cpu, char *errbuf);

/*
 * On the writer thread, its first act: lower its own priority by
 * nice_incr.  Returns 0 or an errno value.
 */
int	pcapint_writer_lower_priority(int nice_incr);

#endif
