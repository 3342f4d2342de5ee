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

/* Now, in ns (CLOCK_MONOTONIC). */
uint64_t lat_now(void);
/* The cost of one lat_now() as seen between two calls (median of many). */
uint64_t lat_clock_cost(void);

#endif
