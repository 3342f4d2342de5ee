/* sysfmt_parse.c - the formatter's names read backwards (for strace logs),
 * and the signal and errno names both directions share. */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/sysfmt.h"

const char *sysfmt_signal_name(int sig, char *buf, size_t size)
{
	const char *abbrev = sig > 0 && sig < SIGRTMIN ? sigabbrev_np(sig) : NULL;
	if (abbrev)
		snprintf(buf, size, "SIG%s", abbrev);
	else
		snprintf(buf, size, "%d", sig);
	return buf;
}

int sysfmt_signal_from_name(const char *name)
{
	if (isdigit((unsigned char)name[0]))
		return atoi(name);
	if (strncmp(name, "SIG", 3) != 0)
		return -1;
	for (int sig = 1; sig < SIGRTMIN; sig++) {
		const char *abbrev = sigabbrev_np(sig);
		if (abbrev && strcmp(abbrev, name + 3) == 0)
			return sig;
	}
	return -1;
}

const char *sysfmt_errno_name(int err)
{
	return err > 0 ? strerrorname_np(err) : NULL;
}

int sysfmt_errno_from_name(const char *name)
{
	for (int err = 1; err < 4096; err++) {
		const char *n = strerrorname_np(err);
		if (n && strcmp(n, name) == 0)
			return err;
	}
	return 0;
}

/* One '|'-separated term: a name of t, a number, or N<<MAP_HUGE_SHIFT. */
static int parse_term(const struct sysfmt_table *t, const char *s, size_t len,
                      uint64_t *out)
{
	char term[64];
	if (len == 0 || len >= sizeof(term))
		return -1;
	memcpy(term, s, len);
	term[len] = '\0';
	if (isdigit((unsigned char)term[0])) {
		char *end;
		uint64_t v = strtoull(term, &end, 0);
		if (strcmp(end, "<<MAP_HUGE_SHIFT") == 0)
			v <<= 26;
		if (!*end || strcmp(end, "<<MAP_HUGE_SHIFT") == 0) {
			*out = v;
			return 0;
		}
		/* else a name that starts with a digit: "1<<_UFFDIO_WAKE" */
	}
	for (size_t i = 0; i < t->count; i++)
		if (strcmp(t->names[i].name, term) == 0) {
			*out = t->names[i].value;
			return 0;
		}
	/* mmap's flags share one argument with its MAP_TYPE enumeration */
	if (t == &sysfmt_map_flags)
		return parse_term(&sysfmt_map_type, s, len, out);
	/* clone's exit signal rides in its flags */
	if (t == &sysfmt_clone && strncmp(term, "SIG", 3) == 0) {
		int sig = sysfmt_signal_from_name(term);
		if (sig < 0)
			return -1;
		*out = (uint64_t)sig;
		return 0;
	}
	return -1;
}

int sysfmt_parse_value(const struct sysfmt_table *t, const char *text, uint64_t *out)
{
	uint64_t v = 0;
	const char *s = text;
	while (*s == ' ')
		s++;
	/* a trailing comment ("0x3039 /- MADV_??? -/") only explains the number */
	const char *end = strstr(s, "/*");
	if (!end)
		end = s + strlen(s);
	while (end > s && end[-1] == ' ')
		end--;
	if (end == s)
		return -1;
	while (s < end) {
		const char *bar = memchr(s, '|', (size_t)(end - s));
		size_t len = bar ? (size_t)(bar - s) : (size_t)(end - s);
		uint64_t term;
		if (parse_term(t, s, len, &term) < 0)
			return -1;
		v |= term;
		s += len + (bar ? 1 : 0);
	}
	*out = v;
	return 0;
}
