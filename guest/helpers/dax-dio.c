// SPDX-License-Identifier: GPL-2.0
/*
 * dax-dio [-q] [-n REPS] [-s SIZE] [-o OFFSET] [-S SEED] DAXFILE BLOCKDEV
 *
 * O_DIRECT I/O whose user buffer *is* a DAX mapping: the block layer has
 * to pin pmem pages (get_user_pages on a DAX vma) and DMA from/to them.
 *
 *   1. mmap 2*SIZE bytes of DAXFILE (fs-dax file, created if missing and
 *      fallocate'd to 2*SIZE, or a /dev/daxX.Y which is never truncated);
 *   2. fill the first SIZE bytes with a seeded xorshift pattern;
 *   3. pwrite(O_DIRECT) that first half to BLOCKDEV at OFFSET, fsync;
 *   4. pread(O_DIRECT) it back into the second half of the DAX mapping
 *      and compare the halves;
 *   5. independently pread(O_DIRECT) into a DRAM buffer and compare.
 *
 * Only steps 3 and 4 are timed.  With -n the pattern changes each round.
 */
#include <err.h>
#include <getopt.h>
#include "common.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: dax-dio [-q] [-n REPS] [-s SIZE] [-o OFFSET] [-S SEED] DAXFILE BLOCKDEV\n"
		"  -s SIZE    bytes per transfer, multiple of 4K (default 8M, K/M/G suffixes)\n"
		"  -o OFFSET  byte offset in BLOCKDEV, multiple of 4K (default 0)\n"
		"  -n REPS    repetitions (default 1)\n"
		"  -S SEED    pattern seed (default: from time)\n"
		"  -q         only print the summary line\n");
	exit(2);
}

/* Full-length O_DIRECT transfer, looping over short reads/writes. */
static void xfer(int write_, int fd, const char *name, unsigned char *buf,
		 size_t len, off_t off)
{
	size_t done = 0;
	ssize_t r;

	while (done < len) {
		if (write_)
			r = pwrite(fd, buf + done, len - done, off + done);
		else
			r = pread(fd, buf + done, len - done, off + done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			fprintf(stderr, "dax-dio: %s %s at offset %lld: %s\n",
				write_ ? "pwrite to" : "pread from", name,
				(long long)(off + done), strerror(e));
			if (e == EFAULT)
				fprintf(stderr, "dax-dio: (EFAULT: the kernel could not pin the DAX buffer pages)\n");
			exit(1);
		}
		if (r == 0)
			errx(1, "%s %s: unexpected end of device at offset %lld",
			     write_ ? "pwrite to" : "pread from", name,
			     (long long)(off + done));
		done += r;
	}
}

static void check(const unsigned char *want, const unsigned char *got,
		  size_t len, const char *what, unsigned long long off)
{
	long long d = first_diff(want, got, len);

	if (d < 0)
		return;
	errx(1, "MISMATCH (%s): first difference at byte %lld (device offset %llu): expected 0x%02x, got 0x%02x",
	     what, d, off + d, want[d], got[d]);
}

int main(int argc, char **argv)
{
	unsigned long long size = 8ULL << 20, off = 0, reps = 1, avail, i;
	const char *daxname, *devname;
	unsigned char *map, *dram;
	double t, tw = 0, tr = 0;
	int c, quiet = 0, dfd, bfd;
	unsigned long long seed = 0;
	uint64_t st;
	int have_seed = 0;

	while ((c = getopt(argc, argv, "qn:s:o:S:")) != -1) {
		switch (c) {
		case 'q':
			quiet = 1;
			break;
		case 'n':
			if (parse_size(optarg, &reps) || !reps)
				usage();
			break;
		case 's':
			if (parse_size(optarg, &size) || !size ||
			    size % PAGE_SZ || size > SIZE_MAX / 2)
				usage();
			break;
		case 'o':
			if (parse_size(optarg, &off) || off % PAGE_SZ ||
			    off > LLONG_MAX)
				usage();
			break;
		case 'S':
			if (parse_size(optarg, &seed))
				usage();
			have_seed = 1;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2)
		usage();
	daxname = argv[optind];
	devname = argv[optind + 1];
	if (!have_seed)
		seed = time_seed();

	dfd = open(daxname, O_RDWR | O_CREAT, 0644);
	if (dfd < 0)
		err(1, "open %s", daxname);
	if (fd_is_regular(dfd)) {
		if (file_reserve(dfd, 2 * size))
			err(1, "allocate %llu bytes in %s", 2 * size, daxname);
	} else if (!fd_size(dfd, daxname, &avail) && avail < 2 * size) {
		/* device-dax: never truncate, but avoid SIGBUS past the end */
		errx(1, "%s: size %llu < 2*SIZE = %llu", daxname, avail,
		     2 * size);
	}
	map = mmap(NULL, 2 * size, PROT_READ | PROT_WRITE, MAP_SHARED, dfd, 0);
	if (map == MAP_FAILED)
		err(1, "mmap %llu bytes of %s", 2 * size, daxname);

	bfd = open(devname, O_RDWR | O_DIRECT);
	if (bfd < 0)
		err(1, "open %s O_DIRECT", devname);
	if (posix_memalign((void **)&dram, PAGE_SZ, size))
		errx(1, "posix_memalign %llu bytes failed", size);

	if (!quiet)
		printf("dax-dio: daxfile=%s blockdev=%s size=%llu offset=%llu reps=%llu seed=%llu\n",
		       daxname, devname, size, off, reps,
		       seed);

	st = prng_seed(seed);
	for (i = 0; i < reps; i++) {
		double w, r;

		prng_fill(map, size, &st);
		/* poison the read targets so stale data cannot pass */
		memset(map + size, 0x5a, size);
		memset(dram, 0xa5, size);

		t = now();
		xfer(1, bfd, devname, map, size, off);
		if (fsync(bfd))
			err(1, "fsync %s", devname);
		w = now() - t;

		t = now();
		xfer(0, bfd, devname, map + size, size, off);
		r = now() - t;

		check(map, map + size, size, "DAX read-back", off);
		xfer(0, bfd, devname, dram, size, off);
		check(map, dram, size, "DRAM read-back", off);

		tw += w;
		tr += r;
		if (!quiet && reps > 1)
			printf("dax-dio: rep %llu: write %.1f MB/s read %.1f MB/s\n",
			       i + 1, size / w / 1e6, size / r / 1e6);
	}

	/* MB = 10^6 bytes; totals over all repetitions */
	printf("dax-dio: %llu bytes written and read back, MB/s write %.1f read %.1f\n",
	       size * reps, size * reps / tw / 1e6, size * reps / tr / 1e6);

	free(dram);
	munmap(map, 2 * size);
	close(bfd);
	close(dfd);
	return 0;
}
