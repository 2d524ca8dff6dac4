// SPDX-License-Identifier: GPL-2.0
/*
 * dax-touch [-a ALIGN | -u] [-w] [-t THREADS] [-n PASSES] [-o OFFSET] [-s SIZE] [-p STRIDE | -r N [-S SEED]] [-P FILE] [-H | -M PAGE] [-v] FILE
 *
 * Map FILE (fs-dax file or /dev/daxX.Y) MAP_SHARED and fault in its pages
 * by touching one location per 4 KiB page, timing the whole pass.  With
 * -n PASSES, map, touch and unmap PASSES times; seconds= is the sum of the
 * passes' touch times (the second and later passes fault in pages whose
 * struct pages the first one initialised).
 *
 * With -u the mapping starts 4 KiB past a 2 MiB boundary, so that the
 * kernel can only map it with 4 KiB page-table entries.
 *
 * With -t THREADS all threads are released together by a barrier and
 * every thread touches the SAME set of pages, thread k starting at
 * position k * n / THREADS of the list and wrapping around, so first
 * touches of each page race between threads.
 *
 * With -w the touch is a store of a 64-bit value derived from the page
 * index only (never the thread), so whichever thread wins, every touched
 * page must end up holding that value; the main thread checks this
 * afterwards and exits 1 on any mismatch.
 *
 * With -P FILE (tracefs function_profile_enabled) "1" is written to FILE
 * right before the first pass's touches and "0" after the last pass's, so
 * the kernel's function profiler counts the faults of the passes only and
 * not those of exec, the stack or the thread start-up.  Between passes the
 * profiler stays on across munmap(), mmap() and pthread_create().
 *
 * -o OFFSET (not with -a or -u) maps FILE from OFFSET on (a multiple of the
 * device's alignment for /dev/daxX.Y), so that a few pages anywhere in a
 * namespace can be mapped.
 *
 * -H and -M are for memory-failure tests, which must see what the kernel
 * finds in the struct page of a mapped page (its mapping and index, to find
 * and signal the process; PG_hwpoison).  After the touches, -H holds the
 * mapping until a SIGBUS or SIGTERM comes, having asked for "early kill"
 * (prctl(PR_MCE_KILL)) so that memory_failure() signals it as soon as a page
 * it maps fails; -M PAGE injects a memory failure at page PAGE of the mapping
 * itself (madvise(MADV_HWPOISON), CAP_SYS_ADMIN).  Either way the last line
 * is what came back: "dax-touch: SIGBUS code=C offset=O lsb=L" (si_code, the
 * reported address as an offset into the mapping, si_addr_lsb) or
 * "dax-touch: no SIGBUS".
 */
#include <err.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include "common.h"

struct touch {
	unsigned char *base;
	const size_t *list;	/* page indexes to touch, or NULL: i * stride */
	size_t n;		/* number of pages touched */
	size_t stride;
	unsigned int nthreads;
	int write;
	pthread_barrier_t barrier;
};

struct worker {
	struct touch *t;
	unsigned int k;
	unsigned long sink;
	pthread_t tid;
};

/* what the SIGBUS of a memory failure said (-H, -M); SIGTERM ends a -H hold */
static siginfo_t bus_info;
static volatile sig_atomic_t got_bus, got_term;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig == SIGBUS) {
		bus_info = *si;
		got_bus = 1;
	} else {
		got_term = 1;
	}
}

/*
 * -H: wait, with the mapping in place, until a SIGBUS or SIGTERM.  Both are
 * blocked but inside sigsuspend(), so neither can slip in between the test
 * and the wait.
 */
static void hold(void)
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGBUS);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0))
		err(1, "prctl(PR_MCE_KILL)");
	printf("dax-touch: holding\n");
	fflush(stdout);
	while (!got_bus && !got_term)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void report_sigbus(const unsigned char *base)
{
	if (got_bus)
		printf("dax-touch: SIGBUS code=%d offset=%lld lsb=%d\n",
		       bus_info.si_code,
		       (long long)((unsigned char *)bus_info.si_addr - base),
		       (int)bus_info.si_addr_lsb);
	else
		printf("dax-touch: no SIGBUS\n");
}

static void usage(void)
{
	fprintf(stderr,
		"usage: dax-touch [-a ALIGN | -u] [-w] [-t THREADS] [-n PASSES] [-o OFFSET] [-s SIZE] [-p STRIDE | -r N [-S SEED]] [-P FILE] [-H | -M PAGE] [-v] FILE\n"
		"  -a ALIGN   map at an ALIGN-aligned address (e.g. 2M) so PMD faults are possible\n"
		"  -u         map 4 KiB past a 2 MiB boundary: 4 KiB mappings only\n"
		"  -w         write (and afterwards verify) instead of read\n"
		"  -t THREADS threads racing over the same pages (default 1)\n"
		"  -n PASSES  map, touch and unmap PASSES times (default 1), timing the touches\n"
		"  -o OFFSET  map FILE from OFFSET (default 0; not with -a or -u)\n"
		"  -s SIZE    bytes to map (default: file size, or sysfs size of /dev/daxX.Y, less OFFSET)\n"
		"  -p STRIDE  touch only every STRIDE-th page\n"
		"  -r N       touch N random distinct pages\n"
		"  -S SEED    seed for -r (default: from time)\n"
		"  -P FILE    write 1 to FILE before the touches, 0 after (function_profile_enabled)\n"
		"  -H         then hold the mapping until a memory failure's SIGBUS (early kill) or SIGTERM\n"
		"  -M PAGE    then inject a memory failure at page PAGE of the mapping (MADV_HWPOISON)\n"
		"  -v         verbose; with -r print the chosen page indexes\n");
	exit(2);
}

static inline size_t page_at(const struct touch *t, size_t i)
{
	return t->list ? t->list[i] : i * t->stride;
}

/* Nonzero, distinct per page: an untouched (zero) page never matches. */
static inline uint64_t page_pattern(size_t page)
{
	return (page + 1) * 0x9e3779b97f4a7c15ULL;
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct touch *t = w->t;
	size_t i, j, page;
	unsigned long sink = 0;

	pthread_barrier_wait(&t->barrier);
	i = (size_t)((unsigned __int128)w->k * t->n / t->nthreads);
	for (j = 0; j < t->n; j++, i++) {
		if (i == t->n)
			i = 0;
		page = page_at(t, i);
		if (t->write)
			*(volatile uint64_t *)(t->base + page * PAGE_SZ) =
				page_pattern(page);
		else
			sink += *(volatile unsigned char *)(t->base + page * PAGE_SZ);
	}
	w->sink = sink;
	return NULL;
}

/* Write @val to the already open @fd (a tracefs switch); exit on failure. */
static void profiler_switch(int fd, const char *path, const char *val)
{
	if (write(fd, val, strlen(val)) < 0)
		err(1, "write %s to %s", val, path);
}

/*
 * mmap(MAP_SHARED) @len bytes of @fd at an address 4 KiB past a 2 MiB
 * boundary: no PMD (or PUD) entry can map it, every fault is a 4 KiB one.
 */
static void *map_unaligned(int fd, size_t len, int prot)
{
	const size_t pmd = 2UL << 20;
	uintptr_t res, start;
	void *p;

	if (len > SIZE_MAX - 2 * pmd) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	p = mmap(NULL, len + 2 * pmd, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return p;
	res = (uintptr_t)p;
	start = ((res + pmd - 1) & ~(uintptr_t)(pmd - 1)) + PAGE_SZ;
	p = mmap((void *)start, len, prot, MAP_SHARED | MAP_FIXED, fd, 0);
	if (p == MAP_FAILED) {
		int e = errno;

		munmap((void *)res, len + 2 * pmd);
		errno = e;
		return p;
	}
	munmap((void *)res, start - res);
	if (res + len + 2 * pmd > start + len)
		munmap((void *)(start + len), res + len + 2 * pmd - start - len);
	return p;
}

/*
 * Pick @n distinct page indexes out of [0, @npages) (Floyd's algorithm,
 * O(n) with a bitmap), then shuffle them so the touch order is random too.
 */
static size_t *random_pages(size_t n, size_t npages, uint64_t seed)
{
	unsigned char *seen = calloc(npages / 8 + 1, 1);
	size_t *list = malloc(n * sizeof(*list));
	uint64_t s = prng_seed(seed);
	size_t i, j, k, tmp;

	if (!seen || !list)
		err(1, "malloc");
	for (i = 0, j = npages - n; j < npages; j++, i++) {
		k = prng_next(&s) % (j + 1);
		if (seen[k / 8] & (1 << (k % 8)))
			k = j;
		seen[k / 8] |= 1 << (k % 8);
		list[i] = k;
	}
	for (i = n - 1; i > 0; i--) {
		k = prng_next(&s) % (i + 1);
		tmp = list[i];
		list[i] = list[k];
		list[k] = tmp;
	}
	free(seen);
	return list;
}

int main(int argc, char **argv)
{
	unsigned long long size = 0, align = 0, stride = 1, nrand = 0, v;
	unsigned long long nthreads = 1, passes = 1, pass, avail, seed = 0;
	unsigned long long offset = 0, mce_page = ULLONG_MAX;
	int c, have_seed = 0, verbose = 0, unaligned = 0, fd, prot, prof_fd = -1;
	int hold_mapping = 0;
	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO };
	const char *prof_path = NULL;
	struct touch t = { 0 };
	struct worker *w;
	size_t npages, i;
	const char *path;
	double t0, total = 0;

	while ((c = getopt(argc, argv, "a:uwt:n:o:s:p:r:S:P:HM:v")) != -1) {
		switch (c) {
		case 'a':
			if (parse_size(optarg, &align) || !align ||
			    align & (align - 1) || align % PAGE_SZ)
				usage();
			break;
		case 'u':
			unaligned = 1;
			break;
		case 'w':
			t.write = 1;
			break;
		case 't':
			if (parse_size(optarg, &nthreads) || !nthreads ||
			    nthreads > 4096)
				usage();
			break;
		case 'n':
			if (parse_size(optarg, &passes) || !passes)
				usage();
			break;
		case 'o':
			if (parse_size(optarg, &offset) || offset % PAGE_SZ)
				usage();
			break;
		case 's':
			if (parse_size(optarg, &size) || !size)
				usage();
			break;
		case 'p':
			if (parse_size(optarg, &stride) || !stride)
				usage();
			break;
		case 'r':
			if (parse_size(optarg, &nrand) || !nrand)
				usage();
			break;
		case 'S':
			if (parse_size(optarg, &seed))
				usage();
			have_seed = 1;
			break;
		case 'P':
			prof_path = optarg;
			break;
		case 'H':
			hold_mapping = 1;
			break;
		case 'M':
			if (parse_size(optarg, &mce_page) || mce_page == ULLONG_MAX)
				usage();
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1 || (nrand && stride != 1) || (unaligned && align) ||
	    (offset && (unaligned || align)) || (hold_mapping && mce_page != ULLONG_MAX))
		usage();
	path = argv[optind];

	if (prof_path) {
		prof_fd = open(prof_path, O_WRONLY);
		if (prof_fd < 0)
			err(1, "open %s", prof_path);
	}
	prot = t.write ? PROT_READ | PROT_WRITE : PROT_READ;
	fd = open(path, t.write ? O_RDWR : O_RDONLY);
	if (fd < 0)
		err(1, "open %s", path);
	if (fd_size(fd, path, &avail)) {
		if (!size)
			err(1, "cannot determine size of %s (use -s)", path);
		avail = size;	/* unknown: trust -s */
	}
	if (offset > avail)
		errx(1, "%s: OFFSET %llu exceeds its size %llu", path, offset, avail);
	avail -= offset;
	if (!size)
		size = avail;
	if (!size)
		errx(1, "%s: size is 0", path);
	if (size > avail)
		errx(1, "%s: SIZE %llu exceeds its size %llu past OFFSET", path, size, avail);
	if (size > SIZE_MAX - align)
		errx(1, "SIZE too large");

	npages = (size + PAGE_SZ - 1) / PAGE_SZ;
	if (mce_page != ULLONG_MAX && mce_page >= npages)
		errx(1, "-M %llu: only %zu pages mapped", mce_page, npages);
	t.stride = stride;
	t.nthreads = nthreads;
	if (nrand) {
		if (nrand > npages)
			errx(1, "-r %llu: only %zu pages", nrand, npages);
		if (!have_seed)
			seed = time_seed();
		t.n = nrand;
		t.list = random_pages(nrand, npages, seed);
		if (verbose) {
			printf("dax-touch: seed=%llu\n", seed);
			printf("pages:");
			for (i = 0; i < t.n; i++)
				printf(" %zu", t.list[i]);
			printf("\n");
		}
	} else {
		t.n = (npages + stride - 1) / stride;
	}
	w = calloc(nthreads, sizeof(*w));
	if (!w)
		err(1, "calloc");
	for (pass = 0; pass < passes; pass++) {
		if (unaligned)
			t.base = map_unaligned(fd, size, prot);
		else if (offset)
			t.base = mmap(NULL, size, prot, MAP_SHARED, fd, offset);
		else
			t.base = map_aligned(fd, size, align, prot);
		if (t.base == MAP_FAILED)
			err(1, "mmap %llu bytes of %s (align %llu)", size, path, align);
		if (verbose && !pass)
			printf("dax-touch: file=%s base=%p align=%llu threads=%llu touches=%zu passes=%llu %s\n",
			       path, (void *)t.base, align, nthreads, t.n, passes,
			       t.write ? "write" : "read");
		errno = pthread_barrier_init(&t.barrier, NULL, nthreads + 1);
		if (errno)
			err(1, "pthread_barrier_init");
		for (i = 0; i < nthreads; i++) {
			w[i].t = &t;
			w[i].k = i;
			errno = pthread_create(&w[i].tid, NULL, worker_fn, &w[i]);
			if (errno)
				err(1, "pthread_create");
		}
		if (prof_fd >= 0 && !pass)
			profiler_switch(prof_fd, prof_path, "1");
		/* the main thread joins the barrier so thread start-up is not timed */
		pthread_barrier_wait(&t.barrier);
		t0 = now();
		for (i = 0; i < nthreads; i++)
			pthread_join(w[i].tid, NULL);
		total += now() - t0;
		if (prof_fd >= 0 && pass + 1 == passes) {
			profiler_switch(prof_fd, prof_path, "0");
			close(prof_fd);
		}
		pthread_barrier_destroy(&t.barrier);
		if (pass + 1 < passes)
			munmap(t.base, size);
	}

	printf("dax-touch: pages=%zu bytes=%llu passes=%llu seconds=%.6f\n", t.n,
	       size, passes, total);

	if (t.write) {
		for (i = 0; i < t.n; i++) {
			size_t page = page_at(&t, i);

			v = *(volatile uint64_t *)(t.base + page * PAGE_SZ);
			if (v != page_pattern(page))
				errx(1, "MISMATCH at page %zu (offset %llu): expected 0x%016llx, found 0x%016llx",
				     page, (unsigned long long)page * PAGE_SZ,
				     (unsigned long long)page_pattern(page), v);
		}
		if (verbose)
			printf("dax-touch: verified %zu pages\n", t.n);
	}
	/* only now: a SIGBUS of the touches themselves must still kill */
	if (hold_mapping || mce_page != ULLONG_MAX) {
		if (sigaction(SIGBUS, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
			err(1, "sigaction");
		if (hold_mapping)
			hold();
		else if (madvise(t.base + mce_page * PAGE_SZ, PAGE_SZ, MADV_HWPOISON))
			err(1, "madvise(MADV_HWPOISON) page %llu", mce_page);
		report_sigbus(t.base);
	}
	munmap(t.base, size);
	close(fd);
	return 0;
}
