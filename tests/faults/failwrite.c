/*
 * failwrite -- an LD_PRELOAD shim that makes write() to regular files
 * misbehave, to test how a writer survives a failing disk.
 *
 *	SLUICE_FAILWRITE=eio:N	the first N writes to regular files go
 *				through; every later one fails with EIO
 *	SLUICE_FAILWRITE=short	every write to a regular file writes at
 *				most half of what it was given (at least
 *				one byte), as a disk may
 *
 * Writes to anything but a regular file (the terminal, pipes) are left
 * alone.  stdio's own writes do not go through this symbol in glibc; the
 * compressed dumper and the writer thread call write() themselves.
 */

#define _GNU_SOURCE

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static ssize_t (*real_write)(int, const void *, size_t);
static long passes = -1;	/* -1: not eio mode */
static int short_mode;
static long count;		/* regular-file writes so far (atomically) */

static void
setup(void)
{
	const char *mode;

	real_write = (ssize_t (*)(int, const void *, size_t))
	    dlsym(RTLD_NEXT, "write");
	mode = getenv("SLUICE_FAILWRITE");
	if (mode == NULL)
		return;
	if (strncmp(mode, "eio:", 4) == 0)
		passes = strtol(mode + 4, NULL, 10);
	else if (strcmp(mode, "short") == 0)
		short_mode = 1;
}

ssize_t
write(int fd, const void *buf, size_t len)
{
	struct stat st;

	if (real_write == NULL)
		setup();
	if (fd <= 2 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return (real_write(fd, buf, len));
	if (passes >= 0 &&
	    __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED) >= passes) {
		errno = EIO;
		return (-1);
	}
	if (short_mode && len > 1)
		len /= 2;
	return (real_write(fd, buf, len));
}
