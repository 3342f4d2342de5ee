/* vmtrace_strace.h - reading `strace -f [-ttt] [-T]` logs, line by line. */
#ifndef VMREC_VMTRACE_STRACE_H
#define VMREC_VMTRACE_STRACE_H

#include <stddef.h>
#include <stdint.h>
#include "vmt.h"

enum strace_kind {
	STRACE_SKIP,        /* blank, "strace: ..." messages */
	STRACE_CALL,        /* NAME(ARGS) = RESULT */
	STRACE_UNFINISHED,  /* NAME(ARGS <unfinished ...> */
	STRACE_RESUMED,     /* <... NAME resumed>ARGS) = RESULT */
	STRACE_EXITED,      /* +++ exited with N +++ / +++ killed by SIG +++ */
	STRACE_SIGNAL,      /* --- SIGCHLD {...} --- */
	STRACE_BAD,
};

/* One line, split in place: the text pointers point into the line. */
struct strace_line {
	int kind;            /* enum strace_kind */
	int32_t pid;         /* 0 when the log has no pid column */
	int has_time;
	uint64_t time_ns;    /* -ttt: since the epoch; -t/-tt: since midnight */
	int has_latency;
	uint64_t latency_ns; /* -T */
	char name[32];
	char *args;          /* CALL: whole list; UNFINISHED: head; RESUMED: tail */
	char *result;        /* "0x7f..", "-1 ENOMEM (...)", "?" */
};

/* 0 on success; -1 with kind STRACE_BAD. */
int strace_parse_line(char *line, struct strace_line *out);

/* What a call's strings said (the trace's events keep no strings).  Start
 * it zeroed; strace_strings_free when done with it. */
struct strace_strings {
	char exe[256];       /* execve's file; "" for other calls */
	int exe_given;       /* execve's file was a string (not NULL or an address) */
	char cmdline[512];   /* execve's argv joined by single spaces */
	char fd_path[256];   /* mmap's file as strace -y shows it, or "" */
	int has_argv;        /* execve's or execveat's argv and envp: argv below */
	struct vmt_argv argv; /* its strings point into the call's args text */
	struct vmt_arg *args; /* argv's elements (grown as needed) */
	size_t args_cap;
	int has_ranges;      /* what the call's memory held: its RANGES record */
	struct vmt_ranges ranges;   /* its name points into the call's args text */
	struct vmt_range *rv;       /* its ranges (grown as needed) */
	size_t rv_cap;
};
void strace_strings_free(struct strace_strings *s);

/* The decoded call: ev's sys, args, result, err and flags.  0, or -1 for a
 * call the trace format has no number for, or -2 for arguments or a result
 * that do not parse (or no memory).  args is split (and execve's strings
 * unescaped) in place. */
int strace_decode_call(const char *name, char *args, const char *result,
                       struct vmt_event *ev, struct strace_strings *exec);
/* The calls printed by code of their own whose arguments strace read from
 * memory (vmtrace_strace_mem.c): prctl, ioctl and process_madvise.  Their
 * registers into ev->args (pointers the log does not show: 0), the row
 * into ev->sys, what the memory held into str's RANGES record.  0, -1
 * for a call the table has no row for (another ioctl), or -2. */
int strace_decode_prctl(char **argv, int argc, struct vmt_event *ev, struct strace_strings *str);
int strace_decode_ioctl(char **argv, int argc, struct vmt_event *ev, struct strace_strings *str);
int strace_decode_process_madvise(char **argv, int argc, struct vmt_event *ev,
                                  struct strace_strings *str);
/* The first byte of S that is not a space (strace separates by spaces
 * only). */
static inline char *strace_skip_spaces(char *s)
{
	while (*s == ' ')
		s++;
	return s;
}
/* A quoted string at s ('"') unescaped in place: the byte after its
 * closing quote, or NULL. */
char *strace_unquote(char *s);
/* execve's (or execveat's from its path on) file name, argv and envp
 * (vmtrace_strace_argv.c): regs[0..2] their registers as far as the log
 * shows them, the rest in str.  0, or -2. */
int strace_decode_exec(char *path, char *argv, char *envp, uint64_t *regs,
                       struct strace_strings *str);

#endif
