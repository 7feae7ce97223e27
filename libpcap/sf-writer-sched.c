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
 * Where a writer thread runs and how nicely: pinned to a CPU, at a lower
 * priority, under a name of its own.
 *
 * The writer thread can lower its own priority, so that when it shares
 * a CPU with the capture thread the scheduler favours the capture: the
 * capture has a kernel ring that overflows, the writer only a deeper
 * backlog in our ring.  On Linux the nice value is per thread, set with
 * setpriority() on the thread's id, and inherited by the threads it
 * creates; elsewhere it is the process's, and refused.
 *
 * The writer thread names itself "pcap-writer" where threads can be
 * named (on Linux, for top -H, ps -L and /proc/PID/task/TID/comm), so
 * that a user can tell it and its compression helpers ("pcap-compress",
 * see sf-compress-jobs.c) from the capturing thread.
 */

#include <config.h>

#include "ftmacros.h"	/* _GNU_SOURCE, for CPU affinity */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "pcap-int.h"
#include "sf-writer-sched.h"

int
pcapint_writer_lower_priority(int nice_incr)
{
#ifdef __linux__
	id_t tid;
	int cur;

	if (nice_incr == 0)
		return (0);
	tid = (id_t)syscall(SYS_gettid);
	errno = 0;
	cur = getpriority(PRIO_PROCESS, tid);
	if (cur == -1 && errno != 0)
		return (errno);
	/* Already as low as it goes: the kernel would clamp it anyway. */
	if (cur + nice_incr > 19)
		nice_incr = 19 - cur;
	if (setpriority(PRIO_PROCESS, tid, cur + nice_incr) != 0)
		return (errno);
	return (0);
#else
	return (nice_incr == 0 ? 0 : ENOTSUP);
#endif
}

void
pcapint_writer_set_name(const char *name)
{
#if defined(HAVE_PTHREAD_SETNAME_NP) && defined(__linux__)
	/* Linux's is the two-argument one; at most 15 characters. */
	(void)pthread_setname_np(pthread_self(), name);
#else
	(void)name;
#endif
}

#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
static void *
writer_probe_main(void *arg _U_)
{
	return (NULL);
}

/*
 * Start a thread pinned to cpu, and let it end: the kernel is the judge
 * of which CPUs a thread of this process may run on.  The calling
 * thread's own mask is not: a capture started with "taskset -c 1" may
 * ask for its writer on CPU 0, which the process's cpuset allows.  Returns 0 or an errno value.
 */
static int
writer_probe_cpu(int cpu)
{
	pthread_attr_t attr;
	pthread_t t;
	cpu_set_t cpus;
	sigset_t all, old;
	int err;

	pthread_attr_init(&attr);
	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	err = pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
	if (err == 0) {
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		err = pthread_create(&t, &attr, writer_probe_main, NULL);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (err == 0)
			pthread_join(t, NULL);
	}
	pthread_attr_destroy(&attr);
	return (err);
}
#endif

int
pcapint_writer_check_cpu(int cpu, char *errbuf)
{
#ifdef HAVE_PTHREAD_ATTR_SETAFFINITY_NP
	int err;

	/*
	 * Say which CPU is wrong, and say it when the option is set:
	 * otherwise the error would only come when the first file is
	 * opened.  EINVAL is the kernel's answer for a CPU that does not
	 * exist or that the process's cpuset leaves out.
	 */
	if (cpu < 0 || cpu >= CPU_SETSIZE)
		err = EINVAL;
	else
		err = writer_probe_cpu(cpu);
	if (err == EINVAL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "cannot pin the writer thread to CPU %d: no such CPU is available to this process",
		    cpu);
		return (-1);
	}
	if (err != 0) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, err,
		    "cannot pin the writer thread to CPU %d", cpu);
		return (-1);
	}
	return (0);
#else
	snprintf(errbuf, PCAP_ERRBUF_SIZE,
	    "cannot pin the writer thread to CPU %d: not supported on this platform",
	    cpu);
	return (-1);
#endif
}

int
pcapint_writer_check_nice(int nice_incr, char *errbuf)
{
	/*
	 * Only ever lower: raising the writer above the capture thread
	 * is the opposite of the point, and needs privileges besides.
	 */
	if (nice_incr < 0 || nice_incr > 19) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "writer thread priority decrease %d is out of range (0 to 19)",
		    nice_incr);
		return (-1);
	}
#ifndef __linux__
	if (nice_incr != 0) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE,
		    "cannot lower the writer thread's priority: not supported on this platform");
		return (-1);
	}
#endif
	return (0);
}
