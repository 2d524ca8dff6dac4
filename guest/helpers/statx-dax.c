// SPDX-License-Identifier: GPL-2.0
/*
 * statx-dax FILE
 *
 * Print "dax" and exit 0 if statx() says FILE is currently in DAX mode
 * (STATX_ATTR_DAX set in stx_attributes, and the kernel/filesystem
 * declares the bit meaningful in stx_attributes_mask).  Otherwise print
 * "not-dax" and exit 1.
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#ifndef STATX_ATTR_DAX
#define STATX_ATTR_DAX	0x00200000
#endif

int main(int argc, char **argv)
{
	struct statx stx;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: statx-dax FILE\n");
		return 2;
	}
	if (statx(AT_FDCWD, argv[1], AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS,
		  &stx))
		err(1, "statx %s", argv[1]);

	if (!(stx.stx_attributes_mask & STATX_ATTR_DAX)) {
		fprintf(stderr, "statx-dax: %s: STATX_ATTR_DAX not supported\n",
			argv[1]);
		printf("not-dax\n");
		return 1;
	}
	if (stx.stx_attributes & STATX_ATTR_DAX) {
		printf("dax\n");
		return 0;
	}
	printf("not-dax\n");
	return 1;
}
