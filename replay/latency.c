#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "replay/latency.h"

void lat_reset(struct lat_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

static unsigned bucket_of(uint64_t v)
{
	if (v < LAT_SUB)
		return (unsigned)v;
	unsigned msb = 63 - (unsigned)__builtin_clzll(v);     /* >= 5 */
	unsigned sub = (unsigned)(v >> (msb - 5)) & (LAT_SUB - 1);
	return (msb - 4) * LAT_SUB + sub;
}

/* The middle of a bucket's value range. */
static uint64_t bucket_value(unsigned b)
{
	if (b < LAT_SUB)
		return b;
	unsigned msb = b / LAT_SUB + 4, sub = b % LAT_SUB;
	uint64_t lo = ((uint64_t)(LAT_SUB + sub)) << (msb - 5);
	return lo + (((uint64_t)1 << (msb - 5)) >> 1);
}

void lat_add(struct lat_stats *s, uint64_t ns)
{
	s->count++;
	s->sum += (double)ns;
	s->sumsq += (double)ns * (double)ns;
	s->time_ns += ns;
	if (ns < s->min)
		s->min = ns;
	if (ns > s->max)
		s->max = ns;
	s->hist[bucket_of(ns)]++;
}

double lat_mean(const struct lat_stats *s)
{
	return s->count ? s->sum / (double)s->count : 0;
}

double lat_stddev(const struct lat_stats *s)
{
	if (s->count < 2)
		return 0;
	double m = lat_mean(s);
	double var = (s->sumsq - (double)s->count * m * m) / (double)(s->count - 1);
	return var > 0 ? sqrt(var) : 0;
}

uint64_t lat_percentile(const struct lat_stats *s, double p)
{
	if (!s->count)
		return 0;
	uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)s->count);
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned b = 0; b < LAT_BUCKETS; b++) {
		seen += s->hist[b];
		if (seen >= rank) {
			uint64_t v = bucket_value(b);
			return v < s->min ? s->min : v > s->max ? s->max : v;
		}
	}
	return s->max;
}

uint64_t lat_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int lat_use_tsc;
uint64_t lat_tick_mult;

/* Both flags, or the TSC may change rate or stop with the CPU. */
static int tsc_is_constant(void)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[4096];
	int found = 0;
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "flags", 5) == 0) {
			found = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
			break;
		}
	if (f)
		fclose(f);
	return found;
}

void lat_tick_init(void)
{
#if defined(__x86_64__)
	if (!tsc_is_constant())
		return;
	lat_use_tsc = 1;
	uint64_t n0 = lat_now(), t0 = lat_tick();
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	nanosleep(&pause, NULL);
	uint64_t n1 = lat_now(), t1 = lat_tick();
	if (t1 <= t0 || n1 <= n0) {
		lat_use_tsc = 0;
		return;
	}
	lat_tick_mult = (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0));
#endif
}

uint64_t lat_tick_cost(void)
{
	enum { N = 1001 };
	static uint64_t d[N];
	for (int i = 0; i < N; i++) {
		uint64_t a = lat_tick();
		uint64_t b = lat_tick();
		d[i] = lat_tick_ns(b - a);
	}
	qsort(d, N, sizeof(d[0]), cmp_u64);
	return d[N / 2];
}
