/* vmtrace_strace_line.c - split one line of an strace log into its parts:
 *   [PID | [pid PID]] [TIMESTAMP] BODY [<LATENCY>]
 * BODY: NAME(ARGS) = RESULT, NAME(ARGS <unfinished ...>,
 * <... NAME resumed>ARGS) = RESULT, +++ ... +++, --- ... --- */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/vmtrace_strace.h"

static int all_digits(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* "1795986939.257790" (-ttt), "21:15:13.123456" (-tt), "21:15:13" (-t) */
static char *parse_time(char *s, struct strace_line *out)
{
	size_t n = strcspn(s, " ");
	if (n < 8 || s[n] != ' ')
		return s;
	char *dot = memchr(s, '.', n);
	size_t whole = dot ? (size_t)(dot - s) : n;
	size_t frac = dot ? n - whole - 1 : 0;
	uint64_t sec, usec = 0;
	if (whole == 8 && s[2] == ':' && s[5] == ':' && all_digits(s, 2) &&
	    all_digits(s + 3, 2) && all_digits(s + 6, 2)) {
		sec = (uint64_t)(atoi(s) * 3600 + atoi(s + 3) * 60 + atoi(s + 6));
	} else if (all_digits(s, whole)) {
		sec = strtoull(s, NULL, 10);
	} else {
		return s;
	}
	if (dot) {
		if (!all_digits(dot + 1, frac) || frac > 9)
			return s;
		usec = strtoull(dot + 1, NULL, 10);
		for (size_t i = frac; i < 9; i++)
			usec *= 10;
	}
	out->has_time = 1;
	out->time_ns = sec * 1000000000u + usec;
	return strace_skip_spaces(s + n);
}

/* A trailing " <0.000022>" */
static void strip_latency(char *s, struct strace_line *out)
{
	size_t n = strlen(s);
	if (n < 4 || s[n - 1] != '>')
		return;
	char *lt = strrchr(s, '<');
	if (!lt || lt == s || lt[-1] != ' ')
		return;
	char *dot = strchr(lt, '.');
	if (!dot || !all_digits(lt + 1, (size_t)(dot - lt - 1)) ||
	    !all_digits(dot + 1, (size_t)(s + n - 1 - dot - 1)))
		return;
	uint64_t frac = strtoull(dot + 1, NULL, 10);
	for (size_t i = (size_t)(s + n - 1 - dot - 1); i < 9; i++)
		frac *= 10;
	out->has_latency = 1;
	out->latency_ns = strtoull(lt + 1, NULL, 10) * 1000000000u + frac;
	lt[-1] = '\0';
}

/* Cut "ARGS) = RESULT" at the last " = "; args end before the ')' */
static int split_result(char *s, struct strace_line *out)
{
	char *eq = NULL;
	for (char *p = strstr(s, " = "); p; p = strstr(p + 1, " = "))
		eq = p;
	if (!eq)
		return -1;
	out->result = eq + 3;
	char *close = eq;
	while (close > s && close[-1] == ' ')
		close--;
	if (close == s || close[-1] != ')')
		return -1;
	close[-1] = '\0';
	return 0;
}

static int copy_name(struct strace_line *out, const char *s, size_t n)
{
	if (n == 0 || n >= sizeof(out->name))
		return -1;
	memcpy(out->name, s, n);
	out->name[n] = '\0';
	return 0;
}

static int parse_body(char *s, struct strace_line *out)
{
	static const char unfinished[] = " <unfinished ...>";
	if (!strncmp(s, "+++ ", 4)) {
		out->kind = STRACE_EXITED;
		return 0;
	}
	if (!strncmp(s, "--- ", 4)) {
		out->kind = STRACE_SIGNAL;
		return 0;
	}
	if (!strncmp(s, "<... ", 5)) {
		char *name = s + 5, *end = strstr(name, " resumed>");
		if (!end || copy_name(out, name, (size_t)(end - name)) < 0)
			return -1;
		out->kind = STRACE_RESUMED;
		out->args = end + strlen(" resumed>");
		strip_latency(out->args, out);
		return split_result(out->args, out);
	}
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");
	if (s[n] != '(' || copy_name(out, s, n) < 0)
		return -1;
	out->args = s + n + 1;
	size_t len = strlen(out->args);
	size_t ulen = sizeof(unfinished) - 1;
	if (len >= ulen && !strcmp(out->args + len - ulen, unfinished)) {
		out->args[len - ulen] = '\0';
		out->kind = STRACE_UNFINISHED;
		return 0;
	}
	out->kind = STRACE_CALL;
	strip_latency(out->args, out);
	return split_result(out->args, out);
}

int strace_parse_line(char *line, struct strace_line *out)
{
	memset(out, 0, sizeof(*out));
	line[strcspn(line, "\r\n")] = '\0';
	char *s = strace_skip_spaces(line);
	if (*s == '\0' || !strncmp(s, "strace: ", 8)) {
		out->kind = STRACE_SKIP;
		return 0;
	}
	if (!strncmp(s, "[pid ", 5)) {
		s = strace_skip_spaces(s + 5);
		out->pid = (int32_t)strtol(s, &s, 10);
		if (*s != ']')
			goto bad;
		s = strace_skip_spaces(s + 1);
	} else {
		size_t n = strspn(s, "0123456789");
		if (n && s[n] == ' ') {
			out->pid = (int32_t)strtol(s, NULL, 10);
			s = strace_skip_spaces(s + n);
		}
	}
	s = parse_time(s, out);
	if (parse_body(s, out) == 0)
		return 0;
bad:
	out->kind = STRACE_BAD;
	return -1;
}
