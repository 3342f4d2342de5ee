/* say.c - what the replay says about the trace on stderr: a few messages
 * (rp_say), and the one reason a replay is incomplete (rp_incomplete).
 * Below every file that speaks, so none of them needs the loop. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "replay/engine_int.h"

#define MAX_MESSAGES 20

void rp_say(struct rp_engine *e, const char *fmt, ...)
{
	if (e->quiet_mismatch || e->silent || atomic_fetch_add(&e->sh->printed, 1) >= MAX_MESSAGES)
		return;
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "vmreplay: %s: %s\n", e->t->path, buf);
}

void rp_incomplete(struct rp_engine *e, const char *fmt, ...)
{
	char buf[sizeof e->sh->why];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (atomic_fetch_add(&e->sh->incomplete, 1) == 0)
		memcpy(e->sh->why, buf, sizeof buf);
	if (!e->quiet_mismatch && !e->silent)
		fprintf(stderr, "vmreplay: %s: %s\n", e->t->path, buf);
}
