// SPDX-License-Identifier: GPL-2.0
/*
 * memset-bench -s SIZE [-n REPS] [-b BUF]
 *
 * Reference "physical limit": time memset() of SIZE bytes of an already
 * faulted-in DRAM buffer REPS times and report the median.  With -b the
 * buffer is only BUF bytes, memset SIZE / BUF times per repetition (for a
 * SIZE larger than the guest's RAM; keep BUF well above the caches).
 */
#include <err.h>
#include <getopt.h>
#include "common.h"

static void usage(void)
{
	fprintf(stderr, "usage: memset-bench -s SIZE [-n REPS] [-b BUF]\n"
		"  -s SIZE  bytes to memset per repetition (K/M/G suffixes)\n"
		"  -n REPS  repetitions (default 5)\n"
		"  -b BUF   buffer size, a divisor of SIZE (default SIZE)\n");
	exit(2);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	unsigned long long size = 0, reps = 5, bufsz = 0, i, j;
	double *secs, t, med;
	unsigned char *buf;
	int c;

	while ((c = getopt(argc, argv, "s:n:b:")) != -1) {
		switch (c) {
		case 's':
			if (parse_size(optarg, &size) || !size ||
			    size > SIZE_MAX)
				usage();
			break;
		case 'n':
			if (parse_size(optarg, &reps) || !reps ||
			    reps > 1000000)
				usage();
			break;
		case 'b':
			if (parse_size(optarg, &bufsz) || !bufsz ||
			    bufsz > SIZE_MAX)
				usage();
			break;
		default:
			usage();
		}
	}
	if (!bufsz)
		bufsz = size;
	if (optind != argc || !size || size % bufsz)
		usage();

	buf = malloc(bufsz);
	secs = malloc(reps * sizeof(*secs));
	if (!buf || !secs)
		err(1, "malloc %llu bytes", size);
	/* fault everything in first so only the memset itself is timed */
	memset(buf, 0xff, bufsz);

	for (i = 0; i < reps; i++) {
		t = now();
		for (j = 0; j < size / bufsz; j++) {
			memset(buf, (int)(i + j), bufsz);
			/* never read: keep the compiler from dropping it */
			__asm__ volatile("" : : "r"(buf) : "memory");
		}
		secs[i] = now() - t;
		printf("memset-bench: rep %llu seconds=%.6f\n", i + 1, secs[i]);
	}
	qsort(secs, reps, sizeof(*secs), cmp_double);
	med = reps % 2 ? secs[reps / 2] :
			 (secs[reps / 2 - 1] + secs[reps / 2]) / 2;
	printf("memset-bench: bytes=%llu median_seconds=%.6f\n", size, med);
	free(secs);
	free(buf);
	return 0;
}
