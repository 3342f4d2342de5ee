/* sysfmt.c - one event as strace 6.1 prints it.  Each system call is a row
 * of argument kinds; only mremap, clone and clone3, whose printing depends
 * on their flags, have code of their own. */
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "lib/sysfmt.h"

/* An snprintf-style accumulator: keeps counting past the end of buf. */
struct out {
	char *buf;
	size_t size, len;
};

__attribute__((format(printf, 2, 3)))
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	size_t room = o->len < o->size ? o->size - o->len : 0;
	va_start(ap, fmt);
	int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

enum result_kind { R_DEC, R_HEX };

struct call_fmt;
typedef void custom_fn(struct out *o, const struct vmt_event *ev, const struct sysfmt_strings *str);

struct call_fmt {
	uint8_t args[6];
	uint8_t result;
	custom_fn *custom;
};

static void put_addr(struct out *o, uint64_t v)
{
	if (v)
		put(o, "%#" PRIx64, v);
	else
		put(o, "NULL");
}

static void put_hex(struct out *o, uint64_t v)
{
	put(o, "%#" PRIx64, v);
}

/* strace's printflags: names in table order, leftovers in hex. */
static void put_flags(struct out *o, const struct sysfmt_table *t, uint64_t v,
                      int comment)
{
	if (v == 0) {
		if (t->count && t->names[0].value == 0)
			put(o, "%s", t->names[0].name);
		else
			put(o, "0");
		return;
	}
	int n = 0;
	for (size_t i = 0; i < t->count; i++) {
		uint64_t f = t->names[i].value;
		if (f && (v & f) == f) {
			put(o, "%s%s", n++ ? "|" : "", t->names[i].name);
			v &= ~f;
		}
	}
	if (v && n)
		put(o, "|%#" PRIx64, v);
	else if (v)
		put(o, comment ? "%#" PRIx64 " /* %s */" : "%#" PRIx64, v, t->unknown);
}

/* strace's printxval: one name or the number with a comment. */
static void put_enum(struct out *o, const struct sysfmt_table *t, uint64_t v)
{
	for (size_t i = 0; i < t->count; i++)
		if (t->names[i].value == v) {
			put(o, "%s", t->names[i].name);
			return;
		}
	put(o, v ? "%#" PRIx64 " /* %s */" : "%" PRIu64 " /* %s */", v, t->unknown);
}

#define MAP_TYPE_MASK   0x0fu
#define MAP_HUGE_SHIFT  26
#define MAP_HUGE_MASK   (0x3full << MAP_HUGE_SHIFT)

static void put_map_flags(struct out *o, uint64_t v)
{
	put_enum(o, &sysfmt_map_type, v & MAP_TYPE_MASK);
	uint64_t rest = v & ~(uint64_t)MAP_TYPE_MASK & ~MAP_HUGE_MASK;
	if (rest) {
		put(o, "|");
		put_flags(o, &sysfmt_map_flags, rest, 0);
	}
	if (v & MAP_HUGE_MASK)
		put(o, "|%u<<MAP_HUGE_SHIFT", (unsigned)((v & MAP_HUGE_MASK) >> MAP_HUGE_SHIFT));
}

#define MPOL_MODE_FLAGS 0xe000u   /* MPOL_F_STATIC_NODES | RELATIVE_NODES | NUMA_BALANCING */

static void put_arg(struct out *o, enum sysfmt_arg k, uint64_t v)
{
	switch (k) {
	case SYSFMT_ADDR: put_addr(o, v); break;
	case SYSFMT_ULEN: put(o, "%" PRIu64, v); break;
	case SYSFMT_INT: put(o, "%d", (int)v); break;
	case SYSFMT_HEX: put_hex(o, v); break;
	case SYSFMT_PROT: put_flags(o, &sysfmt_prot, v, 1); break;
	case SYSFMT_MAPFLAGS: put_map_flags(o, v); break;
	case SYSFMT_MADV: put_enum(o, &sysfmt_madvise, v); break;
	case SYSFMT_MLOCK: put_flags(o, &sysfmt_mlock, v, 1); break;
	case SYSFMT_MCL: put_flags(o, &sysfmt_mcl, v, 1); break;
	case SYSFMT_SHMFLG: put_flags(o, &sysfmt_shmat, v, 1); break;
	case SYSFMT_DIRFD:
		if ((int)v == SYSFMT_AT_FDCWD)
			put(o, "AT_FDCWD");
		else
			put(o, "%d", (int)v);
		break;
	case SYSFMT_ATFLAGS: put_flags(o, &sysfmt_at_flags, v, 1); break;
	case SYSFMT_MPOL:
		put_enum(o, &sysfmt_mpol_mode, v & ~MPOL_MODE_FLAGS);
		if (v & MPOL_MODE_FLAGS) {
			put(o, "|");
			put_flags(o, &sysfmt_mpol_flags, v & MPOL_MODE_FLAGS, 0);
		}
		break;
	case SYSFMT_MPOLF: put_flags(o, &sysfmt_mbind_flags, v, 1); break;
	case SYSFMT_RFPFLAGS: put_flags(o, &sysfmt_remap_flags, v, 1); break;
	case SYSFMT_SHSTK: put_flags(o, &sysfmt_shstk, v, 1); break;
	case SYSFMT_END: break;
	}
}

static void put_signal(struct out *o, int sig)
{
	char buf[16];
	put(o, "%s", sysfmt_signal_name(sig, buf, sizeof(buf)));
}

#define MREMAP_MAYMOVE 0x1u
#define MREMAP_FIXED   0x2u

static void fmt_mremap(struct out *o, const struct vmt_event *ev, const struct sysfmt_strings *str)
{
	(void)str;
	put_addr(o, ev->args[0]);
	put(o, ", %" PRIu64 ", %" PRIu64 ", ", ev->args[1], ev->args[2]);
	put_flags(o, &sysfmt_mremap, ev->args[3], 1);
	if ((ev->args[3] & (MREMAP_MAYMOVE | MREMAP_FIXED)) == (MREMAP_MAYMOVE | MREMAP_FIXED)) {
		put(o, ", ");
		put_addr(o, ev->args[4]);
	}
}

#define CSIGNAL              0xffull
#define CLONE_PIDFD          0x00001000ull
#define CLONE_THREAD         0x00010000ull
#define CLONE_SETTLS         0x00080000ull
#define CLONE_PARENT_SETTID  0x00100000ull
#define CLONE_CHILD_CLEARTID 0x00200000ull
#define CLONE_CHILD_SETTID   0x01000000ull

/* The child's tid as strace reads it back from parent_tid after the call. */
static void put_parent_tid(struct out *o, const struct vmt_event *ev, uint64_t addr)
{
	if (ev->err == 0 && !(ev->flags & VMT_EV_NORETURN))
		put(o, "[%" PRId64 "]", ev->result);
	else
		put_addr(o, addr);
}

/* x86-64 clone(flags, stack, parent_tid, child_tid, tls). */
static void fmt_clone(struct out *o, const struct vmt_event *ev, const struct sysfmt_strings *str)
{
	(void)str;
	uint64_t flags = ev->args[0] & ~CSIGNAL;
	int sig = (int)(ev->args[0] & CSIGNAL);
	put(o, "child_stack=");
	put_addr(o, ev->args[1]);
	put(o, ", flags=");
	if (flags) {
		put_flags(o, &sysfmt_clone, flags, 1);
		if (sig) {
			put(o, "|");
			put_signal(o, sig);
		}
	} else {
		put_signal(o, sig);
	}
	if (flags & (CLONE_PARENT_SETTID | CLONE_PIDFD)) {
		put(o, ", parent_tid=");
		put_parent_tid(o, ev, ev->args[2]);
	}
	if (flags & CLONE_SETTLS) {
		put(o, ", tls=");
		put_addr(o, ev->args[4]);
	}
	if (flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		put(o, ", child_tidptr=");
		put_addr(o, ev->args[3]);
	}
}

/* clone3 as the trace keeps it: args[0] flags, [1] stack, [2] stack_size,
 * [3] child_tid, [4] parent_tid, [5] tls.  The exit signal is not kept:
 * threads have 0, everything else glibc starts has SIGCHLD. */
static void fmt_clone3(struct out *o, const struct vmt_event *ev, const struct sysfmt_strings *str)
{
	(void)str;
	uint64_t flags = ev->args[0];
	put(o, "{flags=");
	put_flags(o, &sysfmt_clone, flags, 1);
	if (flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		put(o, ", child_tid=");
		put_addr(o, ev->args[3]);
	}
	if (flags & CLONE_PARENT_SETTID) {
		put(o, ", parent_tid=");
		put_addr(o, ev->args[4]);
	}
	put(o, ", exit_signal=");
	put_signal(o, (flags & CLONE_THREAD) ? 0 : SIGCHLD);
	put(o, ", stack=");
	put_addr(o, ev->args[1]);
	put(o, ", stack_size=%#" PRIx64, ev->args[2]);
	if (flags & CLONE_SETTLS) {
		put(o, ", tls=");
		put_addr(o, ev->args[5]);
	}
	put(o, "}");
	if ((flags & CLONE_PARENT_SETTID) && ev->err == 0 &&
	    !(ev->flags & VMT_EV_NORETURN))
		put(o, " => {parent_tid=[%" PRId64 "]}", ev->result);
	put(o, ", %d", SYSFMT_CLONE3_SIZE);
}

static void put_quoted(struct out *o, const char *s);

/* The event's RANGES record of the kind its row reads, if the caller has it. */
static const struct vmt_ranges *ranges_of(const struct vmt_event *ev, const struct sysfmt_strings *str)
{
	const struct vmt_ranges *r = str ? str->ranges : NULL;
	return r && r->kind == (uint32_t)vmt_sys_ranges(ev->sys) ? r : NULL;
}

#define PR_SET_VMA 0x53564d41u
#define PR_SET_THP_DISABLE 41u

/* prctl as strace 6.1 prints the options the table records:
 * "prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, 0x7f.., 4096, "name")",
 * "prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)", "prctl(0x41 /- PR_??? -/, 0x1, 0, 0, 0)" */
static void fmt_prctl(struct out *o, const struct vmt_event *ev, const struct sysfmt_strings *str)
{
	uint32_t option = (uint32_t)ev->args[0];
	put_enum(o, &sysfmt_prctl, option);
	if (option == PR_SET_VMA) {
		const struct vmt_ranges *r = ranges_of(ev, str);
		if (ev->args[1] == 0)
			put(o, ", PR_SET_VMA_ANON_NAME, ");
		else
			put(o, ", %#" PRIx64 " /* PR_SET_VMA_??? */, ", ev->args[1]);
		put_addr(o, ev->args[2]);
		put(o, ", %" PRIu64 ", ", ev->args[3]);
		if (r && r->name_how == VMT_NAME_STR)
			put_quoted(o, r->name ? r->name : "");
		else
			put_addr(o, ev->args[4]);
		return;
	}
	if (option == PR_SET_THP_DISABLE)
		put(o, ", %" PRIu64, ev->args[1]);
	else
		put(o, ", %#" PRIx64, ev->args[1]);
	for (int i = 2; i < 5; i++)
		put(o, ", %#" PRIx64, ev->args[i]);
}

/* strace's array limit (-s 32): the elements it prints before "..." */
#define ARRAY_MAX 32

/* process_madvise(3, [{iov_base=0x7f.., iov_len=4096}, ...], 2, MADV_COLD, 0) */
static void fmt_process_madvise(struct out *o, const struct vmt_event *ev,
                                const struct sysfmt_strings *str)
{
	const struct vmt_ranges *r = ranges_of(ev, str);
	put(o, "%d, ", (int)ev->args[0]);
	if (r) {
		put(o, "[");
		for (uint32_t i = 0; i < r->n && i < ARRAY_MAX; i++) {
			put(o, "%s{iov_base=", i ? ", " : "");
			put_addr(o, r->ranges[i].start);
			put(o, ", iov_len=%" PRIu64 "}", r->ranges[i].len);
		}
		if (r->n > ARRAY_MAX)
			put(o, ", ...");
		put(o, "]");
	} else {
		put_addr(o, ev->args[1]);
	}
	put(o, ", %" PRIu64 ", ", ev->args[2]);
	put_enum(o, &sysfmt_madvise, ev->args[3]);
	put(o, ", %" PRIu64, ev->args[4]);
}

/* ioctl(4, UFFDIO_REGISTER, {range={start=0x7f.., len=0x2000},
 * mode=UFFDIO_REGISTER_MODE_MISSING, ioctls=1<<_UFFDIO_WAKE|...}) and
 * ioctl(4, UFFDIO_UNREGISTER, {start=0x7f.., len=0x1000}) */
static void fmt_uffdio(struct out *o, const struct vmt_event *ev, const struct sysfmt_strings *str)
{
	const struct vmt_ranges *r = ranges_of(ev, str);
	put(o, "%d, ", (int)ev->args[0]);
	put_enum(o, &sysfmt_uffd_cmd, (uint32_t)ev->args[1]);
	put(o, ", ");
	if (!r) {
		put_addr(o, ev->args[2]);
		return;
	}
	int reg = r->kind == VMT_RANGES_UFFDIO_REGISTER;
	put(o, reg ? "{range={start=" : "{start=");
	put_hex(o, r->ranges[0].start);
	put(o, ", len=");
	put_hex(o, r->ranges[0].len);
	if (reg) {
		put(o, "}, mode=");
		put_flags(o, &sysfmt_uffd_mode, r->mode, 1);
		if (!ev->err) {
			put(o, ", ioctls=");
			put_flags(o, &sysfmt_uffd_ioctls, r->ioctls, 0);
		}
	}
	put(o, "}");
}

#define fmt_NONE NULL
#define UNPAREN(...) __VA_ARGS__
static const struct call_fmt calls[VMT_SYS_COUNT] = {
#define SYSCALL(id, name, nr, nargs, predict, args, result, custom, ...) \
	[VMT_SYS_##id] = { { UNPAREN args }, R_##result, fmt_##custom },
#include "vmt_syscalls.def"
#undef SYSCALL
};
#undef UNPAREN
#undef fmt_NONE

const uint8_t *sysfmt_arg_kinds(int sys)
{
	if (sys <= VMT_SYS_NONE || sys >= VMT_SYS_COUNT || calls[sys].custom)
		return NULL;
	return calls[sys].args;
}

/* A string as strace quotes it: C escapes for these, octal for the rest of
 * the unprintable bytes (three digits only before an octal digit). */
static const struct { char c, name; } c_escapes[] = {
	{ '\t', 't' }, { '\n', 'n' }, { '\v', 'v' }, { '\f', 'f' }, { '\r', 'r' },
	{ '\\', '\\' }, { '"', '"' },
};

static void put_quoted(struct out *o, const char *s)
{
	put(o, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		size_t i = 0;
		while (i < sizeof(c_escapes) / sizeof(c_escapes[0]) && c_escapes[i].c != (char)c)
			i++;
		if (i < sizeof(c_escapes) / sizeof(c_escapes[0]))
			put(o, "\\%c", c_escapes[i].name);
		else if (c < 0x20 || c >= 0x7f)
			put(o, "\\%0*o", s[1] >= '0' && s[1] <= '7' ? 3 : 1, c);
		else
			put(o, "%c", c);
	}
	put(o, "\"");
}

/* The argument execve's file name is (argv and envp follow it). */
static int file_arg(int sys)
{
	return sys == VMT_SYS_EXECVE ? 0 : sys == VMT_SYS_EXECVEAT ? 1 : -1;
}

/* strace's "... /- 0x7ffd0010 -/": where reading the array stopped. */
static void put_stopped(struct out *o, uint64_t at)
{
	put(o, "... /* ");
	put_addr(o, at);
	put(o, " */");
}

/* argv as strace prints it: an array not read at all is its address. */
static void put_argv(struct out *o, uint64_t addr, const struct vmt_argv *a)
{
	if (a->argc == 0 && a->argv_end == VMT_ARGV_FAULT) {
		put_addr(o, addr);
		return;
	}
	put(o, "[");
	for (uint32_t i = 0; i < a->argc; i++) {
		const struct vmt_arg *e = &a->args[i];
		if (i)
			put(o, ", ");
		if (e->kind == VMT_ARG_FAULT) {
			put_addr(o, e->addr);
		} else {
			put_quoted(o, e->str ? e->str : "");
			if (e->kind == VMT_ARG_CUT)
				put(o, "...");
		}
	}
	if (a->argv_end != VMT_ARGV_NULL && a->argc)
		put(o, ", ");
	if (a->argv_end == VMT_ARGV_MORE)
		put(o, "...");
	else if (a->argv_end == VMT_ARGV_FAULT)
		put_stopped(o, addr + 8u * a->argc);
	put(o, "]");
}

/* envp: its address, and the count unless it was not read at all. */
static void put_envp(struct out *o, uint64_t addr, const struct vmt_argv *a)
{
	put_addr(o, addr);
	if (a->envc == 0 && a->envp_end == VMT_ARGV_FAULT)
		return;
	put(o, " /* %" PRIu64 " var%s%s */", a->envc, a->envc == 1 ? "" : "s",
	    a->envp_end == VMT_ARGV_FAULT ? ", unterminated" : "");
}

static void fmt_args(struct out *o, const struct vmt_event *ev, const struct sysfmt_strings *str)
{
	const char *name = ev->sys < VMT_SYS_COUNT ? vmt_sys_name(ev->sys) : NULL;
	if (!name || ev->sys == VMT_SYS_NONE) {
		/* like strace for a call it does not know */
		put(o, "syscall_%u(", ev->sys);
		for (int i = 0; i < 6; i++)
			put(o, "%s%#" PRIx64, i ? ", " : "", ev->args[i]);
		put(o, ")");
		return;
	}
	const struct call_fmt *c = &calls[ev->sys];
	put(o, "%s(", name);
	if (c->custom) {
		c->custom(o, ev, str);
	} else {
		int at = file_arg(ev->sys);
		const char *file = str && at >= 0 ? str->file : NULL;
		const struct vmt_argv *argv = str && at >= 0 ? str->argv : NULL;
		for (int i = 0; i < 6 && c->args[i] != SYSFMT_END; i++) {
			if (i)
				put(o, ", ");
			if (i == at && file)
				put_quoted(o, file);
			else if (i == at + 1 && argv)
				put_argv(o, ev->args[i], argv);
			else if (i == at + 2 && argv)
				put_envp(o, ev->args[i], argv);
			else
				put_arg(o, c->args[i], ev->args[i]);
		}
	}
	put(o, ")");
}

static void fmt_result(struct out *o, const struct vmt_event *ev)
{
	int exec = ev->sys == VMT_SYS_EXECVE || ev->sys == VMT_SYS_EXECVEAT;
	if ((ev->flags & VMT_EV_NORETURN) && exec && !ev->err) {
		put(o, "0");   /* strace sees a successful execve return in the new image */
	} else if (ev->flags & VMT_EV_NORETURN) {
		put(o, "?");
	} else if (ev->err) {
		const char *name = sysfmt_errno_name(ev->err);
		if (name)
			put(o, "-1 %s (%s)", name, strerror(ev->err));
		else
			put(o, "-1 E??? (errno %d)", ev->err);
	} else if (ev->sys < VMT_SYS_COUNT && calls[ev->sys].result == R_HEX) {
		put_hex(o, (uint64_t)ev->result);
	} else {
		put(o, "%" PRId64, ev->result);
	}
}

size_t sysfmt_args_with(char *buf, size_t size, const struct vmt_event *ev,
                        const struct sysfmt_strings *str)
{
	struct out o = { buf, size, 0 };
	if (size)
		buf[0] = '\0';
	fmt_args(&o, ev, str);
	return o.len;
}

size_t sysfmt_args(char *buf, size_t size, const struct vmt_event *ev)
{
	return sysfmt_args_with(buf, size, ev, NULL);
}

size_t sysfmt_result(char *buf, size_t size, const struct vmt_event *ev)
{
	struct out o = { buf, size, 0 };
	if (size)
		buf[0] = '\0';
	fmt_result(&o, ev);
	return o.len;
}

size_t sysfmt_call(char *buf, size_t size, const struct vmt_event *ev)
{
	struct out o = { buf, size, 0 };
	if (size)
		buf[0] = '\0';
	fmt_args(&o, ev, NULL);
	put(&o, " = ");
	fmt_result(&o, ev);
	return o.len;
}
