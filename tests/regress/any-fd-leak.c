/*
 * Copyright (c) 2026 The sluice developers.  All rights reserved.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 *
 * Activating the Linux "any" device opens a packet socket, then
 * allocates the list of its two link-layer types; when that allocation
 * fails, libpcap 1.10.5 returned the error with the socket still open
 * (fixed in libpcap 1.10.6).  This program makes exactly that
 * allocation fail, by interposing malloc() and socket(), and checks
 * that activation fails with "malloc" and the socket is closed.
 *
 * usage: any-fd-leak
 * Prints TAP-like lines; exits non-zero on failure.  Needs root, and a
 * build without the sanitizers, whose malloc() cannot be interposed.
 */

#define	_GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <pcap/pcap.h>

#include "../lib-tap.h"

extern void *__libc_malloc(size_t);

static int armed;		/* a packet socket was opened */
static int failed;		/* allocations made to fail */
static int packet_fd = -1;	/* the last packet socket */

/* The list of the "any" device's two link-layer types fails. */
void *
malloc(size_t size)
{
	if (armed && size == 2 * sizeof(u_int)) {
		armed = 0;
		failed++;
		errno = ENOMEM;
		return (NULL);
	}
	return (__libc_malloc(size));
}

int
socket(int domain, int type, int protocol)
{
	int fd;

	fd = (int)syscall(SYS_socket, domain, type, protocol);
	if (fd >= 0 && domain == PF_PACKET) {
		packet_fd = fd;
		armed = 1;
	}
	return (fd);
}

int
main(void)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	pcap_t *p;
	int status;

	p = pcap_create("any", ebuf);
	if (p == NULL)
		return (2);
	status = pcap_activate(p);
	check(failed == 1 && status == PCAP_ERROR &&
	    strstr(pcap_geterr(p), "malloc") != NULL,
	    "activating \"any\" fails at the list of link-layer types (%d, %s)",
	    status, pcap_geterr(p));
	check(packet_fd >= 0 && fcntl(packet_fd, F_GETFD) == -1 &&
	    errno == EBADF, "its packet socket %d is closed", packet_fd);
	pcap_close(p);
	return (tap_end());
}
