// SPDX-License-Identifier: GPL-2.0
/*
 * timed-write FILE STRING
 *
 * Write STRING to FILE (typically a sysfs attribute such as
 * /sys/bus/nd/drivers/nd_pmem/bind) with a single write() and print the
 * time that write() took: for a driver bind that is the kernel-side time
 * of the probe (for pmem: memremap_pages() and the memmap initialisation).
 * Exits 1 with the error when open() or write() fails.
 */
#include <err.h>
#include "common.h"

int main(int argc, char **argv)
{
	size_t len;
	ssize_t r;
	double t0, t1;
	int fd, e;

	if (argc != 3) {
		fprintf(stderr, "usage: timed-write FILE STRING\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0)
		err(1, "open %s", argv[1]);
	len = strlen(argv[2]);
	t0 = now();
	r = write(fd, argv[2], len);
	t1 = now();
	e = errno;
	if (r < 0) {
		fprintf(stderr, "timed-write: write '%s' to %s: %s\n", argv[2],
			argv[1], strerror(e));
		return 1;
	}
	if ((size_t)r != len)
		errx(1, "short write to %s: %zd of %zu bytes", argv[1], r, len);
	if (close(fd))
		err(1, "close %s", argv[1]);
	printf("timed-write: seconds=%.6f\n", t1 - t0);
	return 0;
}
