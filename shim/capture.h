/* capture.h - one way to turn a system call into trace records, shared by
 * both recorders: libvmrec (its hooks and its trap path, reading its own
 * memory) and the vmrec launcher (ptrace stops, reading the tracee's).
 * Given the x86-64 number, the six argument registers, the result and a
 * way to read the caller's memory, these decide whether the call is
 * recorded (the table, `match` included), fill its event, and read what
 * its extra records hold: the RANGES record (process_madvise's iovec, a
 * uffd registration, a VMA's name), execve's ARGV, and which file a FILE
 * record names.  Each recorder stats files, numbers them, asks residency
 * and writes records its own way.
 *
 * No allocation, no stdio, no locks (the shim's rules): every buffer is
 * the caller's. */
#ifndef SHIM_CAPTURE_H
#define SHIM_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "vmt.h"

/* The caller's memory.  read: up to n bytes at addr into dst, the bytes
 * read (fewer where the memory after them cannot be read); unit 1 reads a
 * string and 8 an array of pointers (a reader may stop after the first
 * zero element), 0 plain bytes.  heads (may be NULL: read is used): the
 * first `each` bytes of n strings, got[i] the bytes read of each. */
struct capture_mem {
	size_t (*read)(void *opaque, void *dst, uint64_t addr, size_t n, size_t unit);
	void (*heads)(void *opaque, char *dst, size_t each, const uint64_t *ptrs, size_t n,
	              uint32_t *got);
	void *opaque;
};

/* The row of the table a call is (enum vmt_sys), VMT_SYS_NONE when it is
 * not recorded (a prctl or ioctl the table has no row for). */
static inline int capture_sys(long nr, const uint64_t a[6])
{
	return vmt_sys_of_call(nr, a);
}

/* The event's call: sys, registers, flags and the kernel's raw result
 * (-errno on failure); the recorder adds seq, times, pid, tid, stack and
 * file.  Inline: every recorded call runs it. */
static inline void capture_event(struct vmt_event *ev, int sys, const uint64_t a[6], long ret,
                                 uint16_t flags)
{
	int failed = vmt_raw_failed(ret);
	ev->sys = (uint16_t)sys;
	ev->flags = flags;
	ev->err = failed ? (int32_t)-ret : 0;
	ev->result = failed ? -1 : ret;
	memcpy(ev->args, a, sizeof ev->args);
}

/* Which file a call's FILE record names. */
enum capture_file_kind {
	CAPTURE_FILE_NONE = 0,
	CAPTURE_FILE_FD,      /* mmap of a file: fd */
	CAPTURE_FILE_SYSV,    /* shmat: the segment id */
	CAPTURE_FILE_PATH,    /* execve, execveat: path at `path`, relative to dirfd */
};
struct capture_file {
	int kind;             /* enum capture_file_kind */
	int fd;               /* FD: the descriptor; SYSV: the shmid; PATH: dirfd */
	uint64_t path;        /* PATH: the string's address */
	int flags;            /* PATH: execveat's AT_* flags */
};
/* 1 and *f set when the call names a file, else 0.  A row whose calls
 * may name one: capture_file with fd 0 and no flags names one. */
int capture_file(int sys, const uint64_t a[6], struct capture_file *f);

/* A string at addr into dst (at most cap - 1 bytes and its NUL): its
 * length, or -1 when it cannot be read up to a NUL within them. */
long capture_str(char *dst, size_t cap, uint64_t addr, const struct capture_mem *m);

/* execve's envp: its elements before its end (*end: VMT_ARGV_NULL, or
 * VMT_ARGV_FAULT where it could not be read on). */
uint64_t capture_envc(uint64_t envp, uint32_t *end, const struct capture_mem *m);

/* execve's argv as strace -s 32 shows it, into *a (pointing into *b);
 * envc and envp_end are the caller's (capture_envc). */
#define CAPTURE_ARG_BYTES 32   /* strace's -s default: bytes of a string shown */
#define CAPTURE_ARG_MAX 32     /* and elements of an array */
struct capture_argv_buf {
	uint64_t ptrs[CAPTURE_ARG_MAX + 1];
	uint32_t got[CAPTURE_ARG_MAX];
	struct vmt_arg args[CAPTURE_ARG_MAX];
	char text[CAPTURE_ARG_MAX][CAPTURE_ARG_BYTES + 1];
};
void capture_argv(struct vmt_argv *a, struct capture_argv_buf *b, uint64_t argv,
                  const struct capture_mem *m);

/* A call's RANGES record, read before the call (the table's `ranges`).
 * The iovec of process_madvise goes into the caller's buf of cap ranges;
 * one of more than cap is not read (0: the caller may give a larger buf,
 * CAPTURE_RANGES_NEED says how many). */
struct capture_ranges {
	struct vmt_ranges r;
	struct vmt_range one;           /* a uffd range */
	uint32_t need;                  /* IOVEC: the ranges buf must hold */
	char name[VMT_NAME_MAX + 1];    /* VMA_NAME */
};
/* 1 and c->r filled (seq and pid are the caller's), 0 when the call reads
 * nothing or its memory could not be read (the kernel's EFAULT). */
int capture_ranges(struct capture_ranges *c, int sys, const uint64_t a[6],
                   struct vmt_range *buf, size_t cap, const struct capture_mem *m);
/* After the call: what the kernel wrote back (UFFDIO_REGISTER's ioctls). */
void capture_ranges_after(struct capture_ranges *c, const uint64_t a[6], long ret,
                          const struct capture_mem *m);

#endif
