// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Runs a fuzz harness over files or directories of inputs without
 * libFuzzer, so the seed corpus is part of every test run (and of the
 * sanitizer run) even where clang's fuzzer runtime is absent.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f) {
		perror(path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		fprintf(stderr, "%s: short read\n", path);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n > 0 ? (size_t)n : 0);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int i, files = 0, bad = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			return 2;
		}
		if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *e;

			while (d && (e = readdir(d))) {
				char p[4096];

				if (e->d_name[0] == '.')
					continue;
				snprintf(p, sizeof(p), "%s/%s", argv[i], e->d_name);
				bad += run_file(p);
				files++;
			}
			if (d)
				closedir(d);
		} else {
			bad += run_file(argv[i]);
			files++;
		}
	}
	printf("replayed %d inputs\n", files);
	return bad || files == 0 ? 1 : 0;
}
