// SPDX-License-Identifier: GPL-2.0
/*
 * memset-bench -s SIZE [-n REPS] [-b BUF] [-w]
 *
 * Reference "physical limit": time memset() of SIZE bytes of an already
 * faulted-in DRAM buffer REPS times and report the median.  With -b the
 * buffer is only BUF bytes, memset SIZE / BUF times per repetition (for a
 * SIZE larger than the guest's RAM; keep BUF well above the caches).
 *
 * With -w, aligned 8-byte stores instead of memset(): what the kernel does
 * when it writes struct pages (the template copy of mm/mm_init.c, word by
 * word).  libc's memset() uses vector or string instructions, which an
 * emulator may run at another speed than plain stores.
 */
#include <err.h>
#include <getopt.h>
#include "common.h"

static void usage(void)
{
	fprintf(stderr, "usage: memset-bench -s SIZE [-n REPS] [-b BUF] [-w]\n"
		"  -s SIZE  bytes to memset per repetition (K/M/G suffixes)\n"
		"  -n REPS  repetitions (default 5)\n"
		"  -b BUF   buffer size, a divisor of SIZE (default SIZE)\n"
		"  -w       8-byte stores, as the kernel writes struct pages\n");
	exit(2);
}

/* @len / 8 aligned 8-byte stores of @v; volatile: no vector or string code */
static void store_words(void *buf, size_t len, uint64_t v)
{
	volatile uint64_t *p = buf, *end = p + len / sizeof(*p);

	while (p < end)
		*p++ = v;
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
	int c, words = 0;

	while ((c = getopt(argc, argv, "s:n:b:w")) != -1) {
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
		case 'w':
			words = 1;
			break;
		default:
			usage();
		}
	}
	if (!bufsz)
		bufsz = size;
	if (optind != argc || !size || size % bufsz || bufsz % sizeof(uint64_t))
		usage();

	buf = aligned_alloc(PAGE_SZ, bufsz);
	secs = malloc(reps * sizeof(*secs));
	if (!buf || !secs)
		err(1, "malloc %llu bytes", size);
	/* fault everything in first so only the memset itself is timed */
	memset(buf, 0xff, bufsz);

	for (i = 0; i < reps; i++) {
		t = now();
		for (j = 0; j < size / bufsz; j++) {
			if (words)
				store_words(buf, bufsz, i + j);
			else
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
