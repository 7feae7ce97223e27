/*
 * failwrite -- an LD_PRELOAD shim that makes write() to regular files
 * misbehave, to test how a writer survives a failing disk.
 *
 *	SLUICE_FAILWRITE=eio:N	the first N writes to regular files go
 *				through; every later one fails with EIO
 *	SLUICE_FAILWRITE=short	every write to a regular file writes at
 *				most half of what it was given (at least
 *				one byte), as a disk may
 *	SLUICE_FAILWRITE=full:N	a regular file holds at most N bytes, as
 *				on a full disk: a write that crosses N
 *				writes what fits, the next fails with
 *				ENOSPC; cutting the file back (ftruncate)
 *				makes room again
 *	SLUICE_FAILWRITE=nodirect:N	the first N O_DIRECT writes go
 *				through; every later one fails with
 *				EINVAL, as on a file system that takes the
 *				flag but not the write, and the first
 *				failure says so on stderr
 *
 * Writes to anything but a regular file (the terminal, pipes) are left
 * alone.  stdio's own writes do not go through this symbol in glibc; the
 * compressed dumper and the writer thread call write() themselves.
 */

#define _GNU_SOURCE

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static ssize_t (*real_write)(int, const void *, size_t);
static long passes = -1;	/* -1: not eio mode */
static int short_mode;
static off_t room = -1;		/* -1: not full mode */
static long direct_passes = -1;	/* -1: not nodirect mode */
static int direct_refused;
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
	else if (strncmp(mode, "nodirect:", 9) == 0)
		direct_passes = strtol(mode + 9, NULL, 10);
	else if (strncmp(mode, "full:", 5) == 0) {
		char *end;

		room = (off_t)strtoll(mode + 5, &end, 10);
		if (end == mode + 5 || *end != '\0' || room < 0)
			abort();	/* a test's mistake: fail loudly */
	}
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
	if (direct_passes >= 0 && (fcntl(fd, F_GETFL) & O_DIRECT) &&
	    __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED) >= direct_passes) {
		if (!__atomic_exchange_n(&direct_refused, 1, __ATOMIC_RELAXED)) {
			static const char msg[] =
			    "failwrite: an O_DIRECT write refused\n";

			(void)real_write(2, msg, sizeof(msg) - 1);
		}
		errno = EINVAL;
		return (-1);
	}
	if (short_mode && len > 1)
		len /= 2;
	if (room >= 0) {
		/* An O_APPEND write goes to the end, wherever the offset is. */
		off_t at = (fcntl(fd, F_GETFL) & O_APPEND) ? st.st_size :
		    lseek(fd, 0, SEEK_CUR);

		if (at >= room) {
			errno = ENOSPC;
			return (-1);
		}
		if (at >= 0 && (off_t)len > room - at)
			len = (size_t)(room - at);
	}
	return (real_write(fd, buf, len));
}
