// SPDX-License-Identifier: GPL-2.0
/*
 * dax-rw [-a ALIGN] [-s SIZE] [-S SEED] (write|verify) FILE
 *
 * write:  map FILE (fs-dax file, created/fallocate'd to SIZE if needed, or
 *         /dev/daxX.Y) and fill it through the mapping with a seeded
 *         xorshift stream, then msync(MS_SYNC) (device-dax has no fsync:
 *         its stores need no write-back, so EINVAL is expected there).
 * verify: map FILE read-only and check that it holds the stream for SEED;
 *         exit 1 and print the first bad offset otherwise.
 *
 * The default seed is fixed so that "write" in one boot and "verify" in
 * the next match without extra bookkeeping.
 */
#include <err.h>
#include <getopt.h>
#include "common.h"

#define CHUNK		(1UL << 20)
#define DEFAULT_SEED	1

static void usage(void)
{
	fprintf(stderr,
		"usage: dax-rw [-a ALIGN] [-s SIZE] [-S SEED] (write|verify) FILE\n"
		"  -a ALIGN   map at an ALIGN-aligned address (e.g. 2M)\n"
		"  -s SIZE    bytes (default: file size, or sysfs size of /dev/daxX.Y;\n"
		"             required to create a new file)\n"
		"  -S SEED    pattern seed (default %d)\n", DEFAULT_SEED);
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long long size = 0, align = 0, seed = DEFAULT_SEED, avail, off;
	int c, fd, write_;
	const char *path;
	unsigned char *map, *buf;
	uint64_t s;
	double t;

	while ((c = getopt(argc, argv, "a:s:S:")) != -1) {
		switch (c) {
		case 'a':
			if (parse_size(optarg, &align) || !align ||
			    align & (align - 1) || align % PAGE_SZ)
				usage();
			break;
		case 's':
			if (parse_size(optarg, &size) || !size)
				usage();
			break;
		case 'S':
			if (parse_size(optarg, &seed))
				usage();
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2)
		usage();
	if (!strcmp(argv[optind], "write"))
		write_ = 1;
	else if (!strcmp(argv[optind], "verify"))
		write_ = 0;
	else
		usage();
	path = argv[optind + 1];

	fd = write_ ? open(path, O_RDWR | O_CREAT, 0644) : open(path, O_RDONLY);
	if (fd < 0)
		err(1, "open %s", path);
	if (write_ && size && fd_is_regular(fd) && file_reserve(fd, size))
		err(1, "allocate %llu bytes in %s", size, path);
	if (fd_size(fd, path, &avail)) {
		if (!size)
			err(1, "cannot determine size of %s (use -s)", path);
		avail = size;	/* unknown: trust -s */
	}
	if (!size)
		size = avail;
	if (!size)
		errx(1, "%s: size is 0 (use -s)", path);
	if (size > avail)
		errx(1, "%s: SIZE %llu exceeds its size %llu", path, size, avail);
	if (size > SIZE_MAX - align)
		errx(1, "SIZE too large");

	map = map_aligned(fd, size, align,
			  write_ ? PROT_READ | PROT_WRITE : PROT_READ);
	if (map == MAP_FAILED)
		err(1, "mmap %llu bytes of %s (align %llu)", size, path, align);

	s = prng_seed(seed);
	t = now();
	if (write_) {
		prng_fill(map, size, &s);
		if (msync(map, size, MS_SYNC) && !(errno == EINVAL && !fd_is_regular(fd)))
			err(1, "msync %s", path);
		printf("dax-rw: write ok bytes=%llu seed=%llu seconds=%.6f\n",
		       size, seed, now() - t);
		goto out;
	}

	/* regenerate the stream a chunk at a time (CHUNK is a multiple of 8) */
	buf = malloc(CHUNK);
	if (!buf)
		err(1, "malloc");
	for (off = 0; off < size; off += CHUNK) {
		size_t n = size - off < CHUNK ? size - off : CHUNK;
		long long d;

		prng_fill(buf, n, &s);
		d = first_diff(buf, map + off, n);
		if (d >= 0)
			errx(1, "MISMATCH at offset %llu: expected 0x%02x, found 0x%02x",
			     off + d, buf[d], map[off + d]);
	}
	free(buf);
	printf("dax-rw: verify ok bytes=%llu seed=%llu seconds=%.6f\n",
	       size, seed, now() - t);
out:
	munmap(map, size);
	close(fd);
	return 0;
}
