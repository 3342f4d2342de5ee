/* fork-mthp - David Hildenbrand's fork micro-benchmark, natively: 1 GiB
 * of anonymous memory (MADV_HUGEPAGE, so the mTHP sizes enabled `madvise`
 * apply) written page by page, then fork() timed ROUNDS times (the child
 * exits at once).  Prints the median fork in ns and the folios the
 * kernel gave (AnonHugePages and the per-size fault counters are the
 * caller's business: tests/bench/sim-calibration.sh sets the sizes). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 11

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	size_t len = 1ul << 30;
	double t[ROUNDS];
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("fork-mthp: mmap");
		return 1;
	}
	madvise(p, len, MADV_HUGEPAGE);
	for (size_t o = 0; o < len; o += 4096)
		p[o] = 1;
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();
		pid_t pid = fork();
		if (pid == 0)
			_exit(0);
		t[r] = now_ns() - t0;
		if (pid < 0) {
			perror("fork-mthp: fork");
			return 1;
		}
		waitpid(pid, NULL, 0);
	}
	qsort(t, ROUNDS, sizeof *t, cmp);
	printf("%.0f\n", t[ROUNDS / 2]);
	return 0;
}
