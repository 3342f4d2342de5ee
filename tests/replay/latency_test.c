/* Latency statistics: exact mean/min/max/stddev, percentiles within 3%. */
#include <math.h>
#include "replay/latency.h"
#include "tests/tap.h"

static int near(double got, double want) { return fabs(got - want) <= want * 0.03 + 1; }

int main(void)
{
	static struct lat_stats s;
	lat_reset(&s);
	for (uint64_t v = 1; v <= 1000; v++)
		lat_add(&s, v * 1000);
	is_int(s.count, 1000, "count");
	is_int(s.min, 1000, "min");
	is_int(s.max, 1000000, "max");
	ok(lat_mean(&s) == 500500.0, "mean is exact (%.1f)", lat_mean(&s));
	ok(fabs(lat_stddev(&s) - 288819.4) < 1, "sample stddev (%.1f)", lat_stddev(&s));
	ok(near((double)lat_percentile(&s, 50), 500000), "p50 within 3%% (%llu)", (unsigned long long)lat_percentile(&s, 50));
	ok(near((double)lat_percentile(&s, 90), 900000), "p90 within 3%% (%llu)", (unsigned long long)lat_percentile(&s, 90));
	ok(near((double)lat_percentile(&s, 99), 990000), "p99 within 3%% (%llu)", (unsigned long long)lat_percentile(&s, 99));
	is_int(lat_percentile(&s, 100), 1000000, "p100 is the max");

	lat_reset(&s);
	lat_add(&s, 7);
	is_int(lat_percentile(&s, 50), 7, "small values are exact");
	is_int((long long)lat_stddev(&s), 0, "one sample: stddev 0");
	lat_reset(&s);
	is_int(lat_percentile(&s, 99), 0, "no samples: 0");
	return done_testing();
}
