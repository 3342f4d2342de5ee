/* tap.h - the smallest TAP producer, for compiled tests.
 *
 *   ok(cond, "name %d", i);  is_int(got, want, "name");  is_str(...);
 *   return done_testing();   (prints the plan; exit status 1 on failure)
 */
#ifndef VMREC_TAP_H
#define VMREC_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_run, tap_failed;

__attribute__((format(printf, 2, 3), unused))
static int ok(int cond, const char *fmt, ...)
{
	va_list ap;
	printf("%sok %d - ", cond ? "" : "not ", ++tap_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

__attribute__((format(printf, 1, 2), unused))
static void diag(const char *fmt, ...)
{
	/* stderr, as Test::More's: prove shows it without -v, so a CI log
	 * says why a test failed; stdout first, to keep the two in order */
	va_list ap;
	fflush(stdout);
	fputs("# ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

#define is_int(got, want, ...) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	if (!ok(g_ == w_, __VA_ARGS__)) \
		diag("  got %lld, want %lld", g_, w_); \
} while (0)

#define is_str(got, want, ...) do { \
	const char *g_ = (got), *w_ = (want); \
	if (!ok(g_ && w_ && strcmp(g_, w_) == 0, __VA_ARGS__)) \
		diag("  got \"%s\"\n#   want \"%s\"", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
} while (0)

__attribute__((unused))
static int done_testing(void)
{
	printf("1..%d\n", tap_run);
	return tap_failed ? 1 : 0;
}

#endif
