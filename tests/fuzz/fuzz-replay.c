/*
 * fuzz-replay -- run a fuzz target on saved inputs, without libFuzzer:
 * each argument is a file, or a directory whose files are all run.
 * make check builds every target with this driver, in the plain build
 * and under AddressSanitizer and UndefinedBehaviorSanitizer, and replays
 * the seed corpora and saved reproducers, so a fixed crash stays fixed.
 * Prints how many inputs ran; exits non-zero if one could not be read.
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz-common.h"

static int ran;

static int
run_file(const char *path)
{
	unsigned char *buf;
	long len;
	FILE *f;

	f = fopen(path, "rb");
	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "fuzz-replay: cannot read %s\n", path);
		if (f != NULL)
			fclose(f);
		return (-1);
	}
	buf = malloc(len > 0 ? (size_t)len : 1);
	if (buf == NULL || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "fuzz-replay: cannot read %s\n", path);
		free(buf);
		fclose(f);
		return (-1);
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	ran++;
	return (0);
}

static int
run_path(const char *path)
{
	char sub[4096];
	struct dirent *e;
	struct stat st;
	DIR *d;
	int ret;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "fuzz-replay: no such file %s\n", path);
		return (-1);
	}
	if (!S_ISDIR(st.st_mode))
		return (run_file(path));
	d = opendir(path);
	if (d == NULL)
		return (-1);
	ret = 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (run_path(sub) != 0)
			ret = -1;
	}
	closedir(d);
	return (ret);
}

int
main(int argc, char **argv)
{
	int i, ret;

	ret = 0;
	for (i = 1; i < argc; i++)
		if (run_path(argv[i]) != 0)
			ret = 1;
	printf("%d inputs\n", ran);
	return (ret);
}
