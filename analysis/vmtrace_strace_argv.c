/* vmtrace_strace_argv.c - execve's and execveat's file name, argv and
 * envp as strace prints them, read back into the event's registers, the
 * FILE record's path and the ARGV record (docs/trace-format.md):
 *   "/bin/ls" or 0x1 or NULL
 *   ["ls", "a long string cut at -s"..., 0x1, ...] or [..., ... /- 0xADDR -/]
 *   0x7ffd.. /- 42 vars -/ (", unterminated"), 0x1, NULL, or -v's array */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/vmtrace_strace.h"

static int octal(char c)
{
	return c >= '0' && c <= '7';
}

static int hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static const char escapes[] = "t\tn\nv\vf\fr\r\\\\\"\"";

/* The quoted string at s ('"'), unescaped in place from s on (strace's C
 * escapes, octal, and -x's \xHH); returns the byte after its closing
 * quote, or NULL. */
char *strace_unquote(char *s)
{
	char *w = s, *r = s + 1;
	while (*r && *r != '"') {
		if (*r != '\\') {
			*w++ = *r++;
			continue;
		}
		r++;
		const char *e = NULL;
		for (const char *p = escapes; *p; p += 2)
			if (*p == *r)
				e = p;
		if (e) {
			*w++ = e[1];
			r++;
		} else if (octal(*r)) {
			int v = 0;
			for (int n = 0; n < 3 && octal(*r); n++)
				v = v * 8 + (*r++ - '0');
			*w++ = (char)v;
		} else if (*r == 'x' && hex(r[1]) && hex(r[2])) {
			char h[3] = { r[1], r[2], 0 };
			*w++ = (char)strtol(h, NULL, 16);
			r += 3;
		} else {
			return NULL;
		}
	}
	if (*r != '"')
		return NULL;
	*w = '\0';
	return r + 1;
}

/* An address: "0x7ffd0000", "NULL", a number. */
static char *address(char *s, uint64_t *out)
{
	if (!strncmp(s, "NULL", 4)) {
		*out = 0;
		return s + 4;
	}
	char *end;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || end == s ? NULL : end;
}

/* "/- 0x7ffd0000 -/" after an array's "...": where strace stopped reading. */
static char *stopped_at(char *s, uint64_t *addr)
{
	if (strncmp(s, "/* ", 3) != 0)
		return NULL;
	s = address(s + 3, addr);
	return s && !strncmp(s, " */", 3) ? s + 3 : NULL;
}

static int grow(struct strace_strings *str, uint32_t n)
{
	if (n < str->args_cap)
		return 0;
	size_t cap = str->args_cap ? str->args_cap * 2 : 16;
	struct vmt_arg *v = realloc(str->args, cap * sizeof(*v));
	if (!v)
		return -1;
	str->args = v;
	str->args_cap = cap;
	return 0;
}

/* An array "[...]" (s at '['): its elements (kept in str->args when keep),
 * how it ended and, for "... /- ADDR -/", where.  0, or -2. */
static int array(char *s, int keep, struct strace_strings *str, uint32_t *n, uint32_t *end,
                 uint64_t *stop)
{
	*n = 0;
	*end = VMT_ARGV_NULL;
	s = strace_skip_spaces(s + 1);
	while (*s != ']') {
		if (*n) {
			if (*s != ',')
				return -2;
			s = strace_skip_spaces(s + 1);
		}
		struct vmt_arg a = { VMT_ARG_STR, NULL, 0 };
		if (!strncmp(s, "...", 3)) {
			s = strace_skip_spaces(s + 3);
			*end = VMT_ARGV_MORE;
			if (*s == '/') {
				if (!(s = stopped_at(s, stop)))
					return -2;
				*end = VMT_ARGV_FAULT;
			}
			s = strace_skip_spaces(s);
			if (*s != ']')
				return -2;
			break;
		}
		if (*s == '"') {
			a.str = s;
			if (!(s = strace_unquote(s)))
				return -2;
			if (!strncmp(s, "...", 3)) {
				a.kind = VMT_ARG_CUT;
				s += 3;
			}
		} else {
			a.kind = VMT_ARG_FAULT;
			if (!(s = address(s, &a.addr)))
				return -2;
		}
		if (keep) {
			if (grow(str, *n) < 0)
				return -2;
			str->args[*n] = a;
		}
		(*n)++;
		s = strace_skip_spaces(s);
	}
	return s[1] == '\0' ? 0 : -2;
}

static int read_argv(char *s, uint64_t *reg, struct strace_strings *str)
{
	struct vmt_argv *a = &str->argv;
	uint64_t stop = 0;
	*reg = 0;
	if (*s != '[') {
		a->argv_end = VMT_ARGV_FAULT;   /* not read: NULL or an address */
		s = address(s, reg);
		return s && !*s ? 0 : -2;
	}
	if (array(s, 1, str, &a->argc, &a->argv_end, &stop) < 0)
		return -2;
	/* the register, where strace names the place it stopped at */
	if (a->argv_end == VMT_ARGV_FAULT)
		*reg = stop - 8u * a->argc;
	a->args = str->args;
	return 0;
}

/* envp: "0x7ffd.. /- 42 vars -/", "0x1" (unreadable), "NULL", or -v's
 * array (whose address the log does not show). */
static int read_envp(char *s, uint64_t *reg, struct strace_strings *str)
{
	struct vmt_argv *a = &str->argv;
	*reg = 0;
	if (*s == '[') {
		uint32_t n = 0, end = 0;
		uint64_t stop = 0;
		if (array(s, 0, str, &n, &end, &stop) < 0 || end == VMT_ARGV_MORE)
			return -2;
		a->envc = n;
		a->envp_end = end;
		return 0;
	}
	if (!(s = address(s, reg)))
		return -2;
	a->envp_end = VMT_ARGV_FAULT;       /* not read, unless a count follows */
	s = strace_skip_spaces(s);
	if (!*s)
		return 0;
	char *end;
	if (strncmp(s, "/* ", 3) != 0)
		return -2;
	errno = 0;
	a->envc = strtoull(s + 3, &end, 10);
	if (errno || end == s + 3)
		return -2;
	if (!strncmp(end, " vars", 5))
		end += 5;
	else if (!strncmp(end, " var", 4))
		end += 4;
	else
		return -2;
	a->envp_end = VMT_ARGV_NULL;
	if (!strncmp(end, ", unterminated", 14)) {
		a->envp_end = VMT_ARGV_FAULT;
		end += 14;
	}
	return !strcmp(end, " */") ? 0 : -2;
}

/* The program's name and command line, for PROCESS records. */
static void names(struct strace_strings *str)
{
	size_t len = 0;
	str->cmdline[0] = '\0';
	for (uint32_t i = 0; i < str->argv.argc; i++) {
		const struct vmt_arg *a = &str->args[i];
		const char *text = a->str ? a->str : "";
		size_t room = sizeof(str->cmdline) - len;
		int n = snprintf(str->cmdline + len, room, "%s%s", i ? " " : "", text);
		if (n < 0 || (size_t)n >= room)
			break;
		len += (size_t)n;
	}
}

int strace_decode_exec(char *path, char *argv, char *envp, uint64_t *regs,
                       struct strace_strings *str)
{
	memset(&str->argv, 0, sizeof(str->argv));
	str->exe_given = path[0] == '"';
	if (str->exe_given) {
		char *end = strace_unquote(path);
		if (end && !strcmp(end, "..."))   /* longer than strace's PATH_MAX */
			end += 3;
		if (!end || *end)
			return -2;
		snprintf(str->exe, sizeof(str->exe), "%s", path);
	} else {
		char *end = address(path, &regs[0]);
		if (!end || *end)
			return -2;
	}
	if (read_argv(argv, &regs[1], str) < 0 || read_envp(envp, &regs[2], str) < 0)
		return -2;
	str->has_argv = 1;
	names(str);
	return 0;
}

void strace_strings_free(struct strace_strings *s)
{
	free(s->args);
	s->args = NULL;
	s->args_cap = 0;
	free(s->rv);
	s->rv = NULL;
	s->rv_cap = 0;
}
