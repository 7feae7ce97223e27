/*
 * setupwatch -- an LD_PRELOAD shim that looks at a directory whenever a
 * program sets up a stdio stream of its own with fopencookie(), as
 * libpcap's compressed dumper does while it is set up.
 *
 *	SLUICE_SETUPWATCH_DIR=DIR	each call reports, on the standard
 *					error, every empty regular file in
 *					DIR ("setupwatch: DIR/NAME is empty
 *					while a dumper is set up"); at exit,
 *					"setupwatch: N dumpers set up"
 *
 * A dumper that opened (creating or truncating) its file before setting
 * itself up shows that file empty here; one that opens it afterwards,
 * and writes the header right away, never does.
 */

#define _GNU_SOURCE

#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static long calls;

static void
report(void)
{
	if (getenv("SLUICE_SETUPWATCH_DIR") != NULL)
		fprintf(stderr, "setupwatch: %ld dumpers set up\n", calls);
}

static void
look(const char *dir)
{
	char path[4096];
	struct dirent *e;
	struct stat st;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_size == 0)
			fprintf(stderr,
			    "setupwatch: %s is empty while a dumper is set up\n",
			    path);
	}
	closedir(d);
}

FILE *
fopencookie(void *cookie, const char *mode, cookie_io_functions_t fns)
{
	static FILE *(*real)(void *, const char *, cookie_io_functions_t);
	const char *dir;

	if (real == NULL) {
		real = (FILE *(*)(void *, const char *,
		    cookie_io_functions_t))dlsym(RTLD_NEXT, "fopencookie");
		atexit(report);
	}
	dir = getenv("SLUICE_SETUPWATCH_DIR");
	if (dir != NULL) {
		calls++;
		look(dir);
	}
	return (real(cookie, mode, fns));
}
