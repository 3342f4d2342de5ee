/* vmreport_md.c - markdown escaping (vmreport_md.h). */
#include <ctype.h>
#include <string.h>

#include "analysis/vmreport_md.h"

/* The longest run of backticks in S. */
static size_t longest_ticks(const char *s)
{
	size_t best = 0, run = 0;
	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

/* Only what could start markup is escaped, so ordinary names read as
 * they are ("expand_next", "q <= 0.01"): an underscore between two
 * letters or digits never opens emphasis, a '<' not followed by a letter,
 * '/', '!' or '?' never opens a tag, an '&' not followed by a letter or
 * '#' never an entity. */
static bool markup_at(const char *start, const char *s)
{
	char prev = s > start ? s[-1] : ' ', next = s[1];
	switch (*s) {
	case '\\': case '`': case '*': case '[': case ']': case '|': case '~':
		return true;
	case '_':
		return !isalnum((unsigned char)prev) || !isalnum((unsigned char)next);
	case '<':
		return isalpha((unsigned char)next) || next == '/' || next == '!' || next == '?';
	case '&':
		return isalpha((unsigned char)next) || next == '#';
	}
	return false;
}

void rep_md_text(FILE *f, const char *s)
{
	for (const char *p = s; p && *p; p++) {
		if (*p == '\n' || *p == '\r' || *p == '\t')
			fputc(' ', f);
		else if (markup_at(s, p))
			fprintf(f, "\\%c", *p);
		else
			fputc(*p, f);
	}
}

void rep_md_code(FILE *f, const char *s, bool in_table)
{
	if (!s || !*s) {
		fputs("` `", f);
		return;
	}
	size_t n = longest_ticks(s) + 1;
	/* a span that starts or ends with a backtick (or a space, which
	 * CommonMark would strip from both ends) needs a space of padding */
	size_t len = strlen(s);
	bool pad = s[0] == '`' || s[len - 1] == '`' || s[0] == ' ' || s[len - 1] == ' ';
	for (size_t i = 0; i < n; i++)
		fputc('`', f);
	if (pad)
		fputc(' ', f);
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else if (*s == '|' && in_table)
			fputs("\\|", f);
		else
			fputc(*s, f);
	}
	if (pad)
		fputc(' ', f);
	for (size_t i = 0; i < n; i++)
		fputc('`', f);
}

void rep_md_fence(char *buf, size_t len, const char *s)
{
	size_t n = longest_ticks(s) + 1;
	if (n < 3)
		n = 3;
	if (n >= len)
		n = len - 1;
	memset(buf, '`', n);
	buf[n] = 0;
}
