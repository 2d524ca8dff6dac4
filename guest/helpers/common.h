/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared bits for the pmem/DAX guest helpers: size parsing, sizing of
 * regular files and device-dax character devices, aligned MAP_SHARED
 * mappings, a seeded xorshift PRNG and a monotonic clock.
 *
 * Everything is static inline so that each helper stays a single .c file
 * and unused functions do not trip -Wunused-function.
 */
#ifndef HELPERS_COMMON_H
#define HELPERS_COMMON_H

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/fs.h>

#define PAGE_SZ		4096UL

/*
 * Parse "123", "0x1000", "4K", "2M", "1G", "1T" (binary units, case
 * insensitive, an optional trailing "B"/"iB" is accepted).
 * Returns 0 on success, -1 on malformed input or overflow.
 */
static inline int parse_size(const char *s, unsigned long long *out)
{
	static const char units[] = "KMGT";
	unsigned long long v, mult = 1;
	const char *unit;
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	unit = *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
	if (unit) {
		mult = 1ULL << (10 * (unit - units + 1));
		end++;
	}
	if (mult > 1 && (*end == 'i' || *end == 'I'))
		end++;
	if (mult > 1 && (*end == 'b' || *end == 'B'))
		end++;
	if (*end)
		return -1;
	if (v > ULLONG_MAX / mult)
		return -1;
	*out = v * mult;
	return 0;
}

/*
 * Size of a device-dax instance.  The sysfs size attribute is the only
 * way to learn it (fstat() on the char device reports 0).  Try
 * /sys/class/dax/<basename>/size first and fall back to the device number,
 * which also works when the node was created under a different name.
 */
static inline int daxdev_size(const char *path, const struct stat *st,
			      unsigned long long *size)
{
	const char *name = strrchr(path, '/');
	char buf[PATH_MAX];
	FILE *f;
	int ok;

	name = name ? name + 1 : path;
	snprintf(buf, sizeof(buf), "/sys/class/dax/%s/size", name);
	f = fopen(buf, "r");
	if (!f) {
		snprintf(buf, sizeof(buf), "/sys/dev/char/%u:%u/size",
			 major(st->st_rdev), minor(st->st_rdev));
		f = fopen(buf, "r");
	}
	if (!f)
		return -1;
	ok = fscanf(f, "%llu", size) == 1;
	fclose(f);
	if (!ok) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/*
 * Mappable size of an open file: st_size for regular files, sysfs for
 * device-dax, BLKGETSIZE64 for block devices.  -1 with errno on failure.
 */
static inline int fd_size(int fd, const char *path, unsigned long long *size)
{
	struct stat st;
	uint64_t bsz;

	if (fstat(fd, &st))
		return -1;
	if (S_ISREG(st.st_mode)) {
		*size = st.st_size;
		return 0;
	}
	if (S_ISCHR(st.st_mode))
		return daxdev_size(path, &st, size);
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &bsz))
			return -1;
		*size = bsz;
		return 0;
	}
	errno = EINVAL;
	return -1;
}

static inline int fd_is_regular(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode);
}

/*
 * Make sure a regular file has blocks for [0, len).  fallocate() rather
 * than ftruncate() so that an fs-dax file gets real (ideally 2 MiB
 * contiguous) extents instead of holes; fall back to ftruncate() where
 * fallocate is not supported.  Never shrinks the file.
 */
static inline int file_reserve(int fd, unsigned long long len)
{
	struct stat st;

	if (!fallocate(fd, 0, 0, len))
		return 0;
	if (errno != EOPNOTSUPP)
		return -1;
	if (fstat(fd, &st))
		return -1;
	if ((unsigned long long)st.st_size >= len)
		return 0;
	return ftruncate(fd, len);
}

/*
 * mmap(MAP_SHARED) @len bytes of @fd from offset 0.  With @align != 0
 * the returned address is a multiple of @align.
 *
 * Why the alignment trick: a DAX fault can only be served with a PMD
 * (2 MiB) or PUD (1 GiB) entry when the virtual address is aligned like
 * the file offset / physical address behind it.  mmap(NULL, ...) only
 * guarantees 4 KiB alignment (fs-dax and device-dax try to do better via
 * their get_unmapped_area hooks, but only under conditions), so reserve
 * len + align bytes of inaccessible address space, map the file with
 * MAP_FIXED at the first aligned address inside the reservation, and hand
 * the unused head and tail of the reservation back.
 */
static inline void *map_aligned(int fd, size_t len, size_t align, int prot)
{
	uintptr_t res, start;
	void *p;

	if (!align)
		return mmap(NULL, len, prot, MAP_SHARED, fd, 0);
	if (align & (align - 1) || align % PAGE_SZ || len > SIZE_MAX - align) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	p = mmap(NULL, len + align, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return p;
	res = (uintptr_t)p;
	start = (res + align - 1) & ~(uintptr_t)(align - 1);
	p = mmap((void *)start, len, prot, MAP_SHARED | MAP_FIXED, fd, 0);
	if (p == MAP_FAILED) {
		int e = errno;

		munmap((void *)res, len + align);
		errno = e;
		return p;
	}
	if (start > res)
		munmap((void *)res, start - res);
	if (res + align > start)
		munmap((void *)(start + len), res + align - start);
	return p;
}

/* xorshift64, seeded through splitmix64 so that small seeds diverge. */
static inline uint64_t prng_seed(uint64_t seed)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return z ? z : 0x2545f4914f6cdd1dULL;	/* 0 is a fixed point */
}

static inline uint64_t prng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* Fill @len bytes at @buf with the stream of @s (any alignment). */
static inline void prng_fill(void *buf, size_t len, uint64_t *s)
{
	unsigned char *p = buf;
	uint64_t v;

	for (; len >= 8; len -= 8, p += 8) {
		v = prng_next(s);
		memcpy(p, &v, 8);
	}
	if (len) {
		v = prng_next(s);
		memcpy(p, &v, len);
	}
}

static inline uint64_t time_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec + getpid();
}

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* First differing byte offset of two buffers, or -1 if equal. */
static inline long long first_diff(const void *a, const void *b, size_t len)
{
	const unsigned char *x = a, *y = b;
	size_t i;

	if (!memcmp(a, b, len))
		return -1;
	for (i = 0; i < len; i++)
		if (x[i] != y[i])
			return i;
	return -1;
}

#endif /* HELPERS_COMMON_H */
