/* vmtrace_strace_call.c - one strace-printed call back into the raw
 * register values a trace keeps.  Plain calls read sysfmt's argument rows
 * backwards; mremap, clone, clone3 and execve (vmtrace_strace_argv.c)
 * have their own readers. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/sysfmt.h"
#include "analysis/vmtrace_strace.h"

#define MAX_ARGS 8

/* Split ARGS at top-level ", " (outside quotes, brackets and comments). */
static int split_args(char *s, char **argv, int max)
{
	int n = 0, depth = 0;
	char quote = 0;
	s = strace_skip_spaces(s);
	if (*s == '\0')
		return 0;
	argv[n++] = s;
	for (; *s; s++) {
		if (quote) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == quote)
				quote = 0;
		} else if (*s == '"') {
			quote = '"';
		} else if (s[0] == '/' && s[1] == '*') {
			char *end = strstr(s + 2, "*/");
			if (!end)
				return -1;
			s = end + 1;
		} else if (strchr("([{", *s)) {
			depth++;
		} else if (strchr(")]}", *s)) {
			depth--;
		} else if (*s == ',' && depth == 0) {
			*s = '\0';
			if (n == max)
				return -1;
			while (s[1] == ' ')
				s++;
			argv[n++] = s + 1;
		}
	}
	return quote || depth ? -1 : n;
}

static int parse_number(const char *s, uint64_t *out)
{
	char *end;
	if (!strcmp(s, "NULL")) {
		*out = 0;
		return 0;
	}
	errno = 0;
	if (s[0] == '-')
		*out = (uint64_t)strtoll(s, &end, 0);
	else
		*out = strtoull(s, &end, 0);
	/* strace -y: "3</usr/lib/x86_64-linux-gnu/libc.so.6>" */
	if (*end == '<' && end[strlen(end) - 1] == '>')
		return errno || end == s ? -1 : 0;
	while (*end == ' ')
		end++;
	/* "0x7ffd706d3fc8" followed by a comment such as "41 vars" */
	return errno || end == s || (*end && strncmp(end, "/*", 2)) ? -1 : 0;
}

static const struct sysfmt_table *const kind_table[] = {
	[SYSFMT_PROT] = &sysfmt_prot, [SYSFMT_MAPFLAGS] = &sysfmt_map_flags,
	[SYSFMT_MADV] = &sysfmt_madvise, [SYSFMT_MLOCK] = &sysfmt_mlock,
	[SYSFMT_MCL] = &sysfmt_mcl, [SYSFMT_SHMFLG] = &sysfmt_shmat,
	[SYSFMT_ATFLAGS] = &sysfmt_at_flags, [SYSFMT_MPOLF] = &sysfmt_mbind_flags,
	[SYSFMT_RFPFLAGS] = &sysfmt_remap_flags, [SYSFMT_SHSTK] = &sysfmt_shstk,
};

/* "MPOL_BIND|MPOL_F_STATIC_NODES": the mode, then its flags */
static int parse_mpol(const char *s, uint64_t *out)
{
	char mode[64];
	const char *bar = strchr(s, '|');
	size_t n = bar ? (size_t)(bar - s) : strlen(s);
	uint64_t flags = 0;
	if (n >= sizeof(mode))
		return -1;
	memcpy(mode, s, n);
	mode[n] = '\0';
	if (sysfmt_parse_value(&sysfmt_mpol_mode, mode, out) < 0 ||
	    (bar && sysfmt_parse_value(&sysfmt_mpol_flags, bar + 1, &flags) < 0))
		return -1;
	*out |= flags;
	return 0;
}

static int parse_kind(int kind, const char *s, uint64_t *out)
{
	if (kind == SYSFMT_DIRFD && !strcmp(s, "AT_FDCWD")) {
		*out = (uint64_t)(int64_t)SYSFMT_AT_FDCWD;   /* as the register held it */
		return 0;
	}
	if (kind == SYSFMT_MPOL)
		return parse_mpol(s, out);
	if (kind == SYSFMT_ADDR && s[0] == '[') {
		*out = 0;    /* an array strace read (mbind's nodemask): its address is not shown */
		return 0;
	}
	if (kind < (int)(sizeof(kind_table) / sizeof(kind_table[0])) && kind_table[kind])
		return sysfmt_parse_value(kind_table[kind], s, out);
	return parse_number(s, out);
}

static int decode_plain(const uint8_t *kinds, char **argv, int argc, struct vmt_event *ev)
{
	int i;
	for (i = 0; i < 6 && kinds[i] != SYSFMT_END; i++)
		if (i >= argc || parse_kind(kinds[i], argv[i], &ev->args[i]) < 0)
			return -2;
	return i == argc ? 0 : -2;
}

static int decode_mremap(char **argv, int argc, struct vmt_event *ev)
{
	static const uint8_t kinds[] = { SYSFMT_ADDR, SYSFMT_ULEN, SYSFMT_ULEN };
	if (argc < 4 || argc > 5)
		return -2;
	for (int i = 0; i < 3; i++)
		if (parse_kind(kinds[i], argv[i], &ev->args[i]) < 0)
			return -2;
	if (sysfmt_parse_value(&sysfmt_mremap, argv[3], &ev->args[3]) < 0)
		return -2;
	return argc == 5 && parse_number(argv[4], &ev->args[4]) < 0 ? -2 : 0;
}

/* "parent_tid=[9298]" keeps the child's tid, not the address: 0. */
static int parse_tid_field(const char *v, uint64_t *out)
{
	if (v[0] == '[') {
		*out = 0;
		return 0;
	}
	return parse_number(v, out);
}

struct field {
	const char *name;
	int index;       /* into args[]; -1: ignored */
	int is_flags;
};

/* key=value lists: clone's arguments, clone3's struct. */
static int decode_fields(char **argv, int argc, const struct field *fields, struct vmt_event *ev)
{
	for (int i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq)
			return -2;
		*eq = '\0';
		const struct field *f = fields;
		while (f->name && strcmp(f->name, argv[i]))
			f++;
		if (!f->name)
			return -2;
		if (f->index < 0)
			continue;
		int bad = f->is_flags ? sysfmt_parse_value(&sysfmt_clone, eq + 1, &ev->args[f->index])
		                      : parse_tid_field(eq + 1, &ev->args[f->index]);
		if (bad < 0)
			return -2;
	}
	return 0;
}

/* x86-64 clone(flags, stack, parent_tid, child_tid, tls) */
static const struct field clone_fields[] = {
	{ "child_stack", 1, 0 }, { "flags", 0, 1 }, { "parent_tid", 2, 0 },
	{ "child_tidptr", 3, 0 }, { "tls", 4, 0 }, { NULL, 0, 0 },
};

/* clone3 as sysfmt prints it: [0] flags [1] stack [2] stack_size
 * [3] child_tid [4] parent_tid [5] tls */
static const struct field clone3_fields[] = {
	{ "flags", 0, 1 }, { "stack", 1, 0 }, { "stack_size", 2, 0 },
	{ "child_tid", 3, 0 }, { "parent_tid", 4, 0 }, { "tls", 5, 0 },
	{ "exit_signal", -1, 0 }, { "pidfd", -1, 0 }, { "set_tid", -1, 0 },
	{ "set_tid_size", -1, 0 }, { "cgroup", -1, 0 }, { NULL, 0, 0 },
};

static int decode_clone3(char **argv, int argc, struct vmt_event *ev)
{
	if (argc != 2 || argv[0][0] != '{')
		return -2;
	char *body = argv[0] + 1;
	char *end = strchr(body, '}');   /* before " => {parent_tid=[N]}" */
	if (!end)
		return -2;
	*end = '\0';
	char *fields[12];
	int n = split_args(body, fields, 12);
	return n < 0 ? -2 : decode_fields(fields, n, clone3_fields, ev);
}

/* "3</usr/lib/x86_64-linux-gnu/libc.so.6>" -> the path */
static void fd_path(const char *arg, char *out, size_t size)
{
	const char *lt = strchr(arg, '<');
	size_t n = strlen(arg);
	if (!lt || n < 3 || arg[n - 1] != '>')
		return;
	n = (size_t)(arg + n - 1 - (lt + 1));
	if (n >= size)
		n = size - 1;
	memcpy(out, lt + 1, n);
	out[n] = '\0';
}

static int decode_result(const char *s, struct vmt_event *ev)
{
	if (s[0] == '?') {
		ev->flags |= VMT_EV_NORETURN;
		return 0;
	}
	if (!strncmp(s, "-1 E", 4)) {
		char name[32];
		size_t n = strcspn(s + 3, " ");
		if (n >= sizeof(name))
			return -2;
		memcpy(name, s + 3, n);
		name[n] = '\0';
		ev->err = sysfmt_errno_from_name(name);
		ev->result = -1;
		return ev->err ? 0 : -2;
	}
	uint64_t v;
	char word[32];
	size_t n = strcspn(s, " ");
	if (n >= sizeof(word))
		return -2;
	memcpy(word, s, n);
	word[n] = '\0';
	if (parse_number(word, &v) < 0)
		return -2;
	ev->result = (int64_t)v;
	return 0;
}

#define CLONE_THREAD 0x00010000ull

/* The calls that strace prints with code of its own, read the same way. */
struct decoder {
	int sys;
	int (*decode)(char **argv, int argc, struct vmt_event *ev, struct strace_strings *str);
};

static int dec_execve(char **argv, int argc, struct vmt_event *ev, struct strace_strings *str)
{
	return argc == 3 ? strace_decode_exec(argv[0], argv[1], argv[2], &ev->args[0], str) : -2;
}

/* execveat(DIRFD, "PATH", [ARGV], ENVP, FLAGS) */
static int dec_execveat(char **argv, int argc, struct vmt_event *ev, struct strace_strings *str)
{
	if (argc != 5 || parse_kind(SYSFMT_DIRFD, argv[0], &ev->args[0]) < 0 ||
	    parse_kind(SYSFMT_ATFLAGS, argv[4], &ev->args[4]) < 0)
		return -2;
	return strace_decode_exec(argv[1], argv[2], argv[3], &ev->args[1], str);
}

static int dec_mremap(char **argv, int argc, struct vmt_event *ev, struct strace_strings *str)
{
	(void)str;
	return decode_mremap(argv, argc, ev);
}

static int dec_clone(char **argv, int argc, struct vmt_event *ev, struct strace_strings *str)
{
	(void)str;
	return decode_fields(argv, argc, clone_fields, ev);
}

static int dec_clone3(char **argv, int argc, struct vmt_event *ev, struct strace_strings *str)
{
	(void)str;
	return decode_clone3(argv, argc, ev);
}

/* by the first row of the name: prctl's and ioctl's decoders find the
 * row from the command */
static const struct decoder decoders[] = {
	{ VMT_SYS_EXECVE, dec_execve }, { VMT_SYS_EXECVEAT, dec_execveat },
	{ VMT_SYS_MREMAP, dec_mremap }, { VMT_SYS_CLONE, dec_clone },
	{ VMT_SYS_CLONE3, dec_clone3 }, { VMT_SYS_PRCTL_SET_VMA, strace_decode_prctl },
	{ VMT_SYS_UFFDIO_REGISTER, strace_decode_ioctl },
	{ VMT_SYS_PROCESS_MADVISE, strace_decode_process_madvise },
};

/* "syscall_0x1c5(0, 0x1000, 0x1, 0, 0x64, 0)": a call strace has no name
 * for (newer than it: map_shadow_stack for strace 6.1), its six raw
 * registers; the table's row by its number. */
static int decode_by_number(long nr, char *args, const char *result, struct vmt_event *ev)
{
	int sys = vmt_sys_from_nr(nr);
	char *argv[MAX_ARGS];
	int argc = split_args(args, argv, MAX_ARGS);
	uint64_t match[6] = { 0 };
	if (sys == VMT_SYS_NONE || vmt_sys_match(sys, &(int){ 0 }, &(uint32_t){ 0 }))
		return -1;   /* not recorded, or a row only some calls of the number are */
	if (argc != 6)
		return -2;
	for (int i = 0; i < 6; i++)
		if (parse_number(argv[i], &match[i]) < 0)
			return -2;
	ev->sys = (uint16_t)sys;
	memcpy(ev->args, match, sizeof(ev->args));
	for (int i = vmt_sys_nargs(sys); i < 6; i++)
		ev->args[i] = 0;   /* registers the call does not take: what strace saw there */
	return decode_result(result, ev);
}

int strace_decode_call(const char *name, char *args, const char *result,
                       struct vmt_event *ev, struct strace_strings *str)
{
	int sys = vmt_sys_from_name(name);
	str->exe[0] = str->cmdline[0] = str->fd_path[0] = '\0';
	str->exe_given = str->has_argv = str->has_ranges = 0;
	if (sys == VMT_SYS_NONE && !strncmp(name, "syscall_0x", 10))
		return decode_by_number(strtol(name + 8, NULL, 16), args, result, ev);
	if (sys == VMT_SYS_NONE)
		return -1;
	ev->sys = (uint16_t)sys;
	memset(ev->args, 0, sizeof(ev->args));
	char *argv[MAX_ARGS];
	int argc = split_args(args, argv, MAX_ARGS), ret = -2;
	if (argc < 0)
		return -2;
	const struct decoder *d = NULL;
	for (size_t i = 0; i < sizeof(decoders) / sizeof(decoders[0]); i++)
		if (decoders[i].sys == sys)
			d = &decoders[i];
	const uint8_t *kinds = sysfmt_arg_kinds(sys);
	if (!d && !kinds)
		return -1;   /* printed by code of its own the importer does not read yet */
	if (d)
		ret = d->decode(argv, argc, ev, str);
	else
		ret = decode_plain(kinds, argv, argc, ev);
	if (ret < 0)
		return ret;
	sys = ev->sys;   /* prctl's and ioctl's row, from the command */
	if (sys == VMT_SYS_MMAP)
		fd_path(argv[4], str->fd_path, sizeof(str->fd_path));
	if ((sys == VMT_SYS_CLONE || sys == VMT_SYS_CLONE3) && (ev->args[0] & CLONE_THREAD))
		ev->flags |= VMT_EV_THREAD;
	return decode_result(result, ev);
}
