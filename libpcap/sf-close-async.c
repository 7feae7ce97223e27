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
 * Closing a dumper in the background: pcap_dump_close_async() and
 * pcap_dump_close_async_wait(); see pcap_dump_close_async(3PCAP).
 */

#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "pcap-int.h"
#include "sf-close-async.h"

/*
 * pcap_dump_close() of a dumper with a writer thread drains the ring
 * and joins the thread, which takes as long as the disk needs for what
 * is still in the ring: tens of megabytes behind a slow disk.  A program
 * that rotates files (tcpdump -C, -G) would stall its capture for that
 * long at every switch, which is what the writer thread is there to
 * avoid.  So it can hand the old dumper to a closing thread and go on
 * capturing into the next file at once; the old file's writer thread
 * keeps writing in the meantime, and the closing thread reports each
 * file, in the order they were handed over, once it is complete.
 *
 * One closing thread serves a queue and leaves when the queue is empty,
 * so an idle program keeps no thread of ours.  It blocks every signal,
 * like the writer threads, but calls the handler with the signal mask of
 * the thread that handed the dumper over: a handler that starts a
 * program (tcpdump's -z) must not pass a mask with everything blocked
 * on to it.
 */
struct close_req {
	struct close_req *next;
	pcap_dumper_t	*d;
	pcap_dump_close_handler done;
	void		*user;
	sigset_t	mask;
};

static pthread_mutex_t closer_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t closer_idle = PTHREAD_COND_INITIALIZER;
static struct close_req *closer_head;
static struct close_req **closer_tailp = &closer_head;
static u_int closer_pending;	/* queued or being closed */
static int closer_running;

static void
close_one(struct close_req *r)
{
	struct pcap_dump_stats st;
	const struct pcap_dump_stats *stp;
	char msg[PCAP_ERRBUF_SIZE];
	int status;
	sigset_t all;

	status = pcapint_dump_close_report(r->d, &st, &stp, msg, sizeof(msg));
	if (r->done != NULL) {
		pthread_sigmask(SIG_SETMASK, &r->mask, NULL);
		r->done(r->user, status, stp, msg[0] != '\0' ? msg : NULL);
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, NULL);
	}
}

static void *
closer_main(void *arg _U_)
{
	struct close_req *r;

	pthread_mutex_lock(&closer_lock);
	while ((r = closer_head) != NULL) {
		closer_head = r->next;
		if (closer_head == NULL)
			closer_tailp = &closer_head;
		pthread_mutex_unlock(&closer_lock);
		close_one(r);
		free(r);
		pthread_mutex_lock(&closer_lock);
		closer_pending--;
		pthread_cond_broadcast(&closer_idle);
	}
	closer_running = 0;
	pthread_mutex_unlock(&closer_lock);
	return (NULL);
}

int
pcap_dump_close_async(pcap_dumper_t *d, pcap_dump_close_handler done,
    void *user, char *errbuf)
{
	struct close_req *r;
	pthread_attr_t attr;
	pthread_t t;
	sigset_t all, old;
	int err;

	if (d == NULL) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "NULL dumper");
		return (PCAP_ERROR);
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE, errno,
		    "malloc");
		return (PCAP_ERROR);
	}
	r->d = d;
	r->done = done;
	r->user = user;
	pthread_sigmask(SIG_SETMASK, NULL, &r->mask);

	pthread_mutex_lock(&closer_lock);
	if (!closer_running) {
		/* Detached: it leaves by itself when the queue is empty. */
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		err = pthread_create(&t, &attr, closer_main, NULL);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		pthread_attr_destroy(&attr);
		if (err != 0) {
			pthread_mutex_unlock(&closer_lock);
			free(r);
			pcapint_fmt_errmsg_for_errno(errbuf, PCAP_ERRBUF_SIZE,
			    err, "cannot start the closing thread");
			return (PCAP_ERROR);
		}
		closer_running = 1;
	}
	*closer_tailp = r;
	closer_tailp = &r->next;
	closer_pending++;
	pthread_mutex_unlock(&closer_lock);
	return (0);
}

u_int
pcap_dump_close_async_wait(u_int max_pending)
{
	u_int n;

	pthread_mutex_lock(&closer_lock);
	while (closer_pending > max_pending)
		pthread_cond_wait(&closer_idle, &closer_lock);
	n = closer_pending;
	pthread_mutex_unlock(&closer_lock);
	return (n);
}
