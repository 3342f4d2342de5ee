/* latency.h - latency statistics in fixed memory: exact count, mean,
 * stddev, min and max; percentiles from a log-linear histogram (32 buckets
 * per power of two: within 3%). */
#ifndef VMREPLAY_LATENCY_H
#define VMREPLAY_LATENCY_H

#include <stdint.h>

#define LAT_SUB 32
#define LAT_BUCKETS (64 * LAT_SUB)

struct lat_stats {
	uint64_t count;
	double sum, sumsq;
	uint64_t min, max;
	uint64_t time_ns;      /* sum of the latencies, for ops/s */
	uint32_t hist[LAT_BUCKETS];
};

void lat_reset(struct lat_stats *s);
void lat_add(struct lat_stats *s, uint64_t ns);
double lat_mean(const struct lat_stats *s);
double lat_stddev(const struct lat_stats *s);
uint64_t lat_percentile(const struct lat_stats *s, double p); /* p in [0, 100] */

/* A cheaper clock for timing one call: the TSC where the CPU says it is
 * constant (x86-64), else CLOCK_MONOTONIC.  lat_tick_init() calibrates it;
 * lat_tick_ns() converts a difference of ticks to ns. */
extern int lat_use_tsc;
extern uint64_t lat_tick_mult;   /* ns per tick, 32.32 fixed point */
void lat_tick_init(void);
static inline uint64_t lat_tick(void);
static inline uint64_t lat_tick_ns(uint64_t ticks)
{
	return lat_use_tsc ? (uint64_t)(((unsigned __int128)ticks * lat_tick_mult) >> 32) : ticks;
}
/* The cost of one lat_tick() pair in ns (median of many). */
uint64_t lat_tick_cost(void);

/* Now, in ns (CLOCK_MONOTONIC). */
uint64_t lat_now(void);

static inline uint64_t lat_tick(void)
{
#if defined(__x86_64__)
	if (lat_use_tsc) {
		uint32_t lo, hi;
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		return ((uint64_t)hi << 32) | lo;
	}
#endif
	return lat_now();
}

#endif
