/* sysfmt.h - system calls of a trace formatted as strace 6.1 formats them,
 * and the same tables read backwards for parsing strace logs. */
#ifndef VMREC_SYSFMT_H
#define VMREC_SYSFMT_H

#include <stddef.h>
#include <stdint.h>
#include "vmt.h"

/* "mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f12a000"
 * (no pid prefix, no newline).  Returns the length it wanted, like snprintf. */
size_t sysfmt_call(char *buf, size_t size, const struct vmt_event *ev);

/* The two halves strace separates with its column padding:
 * "mmap(NULL, 4096, ...)" and "0x7f12a000" / "-1 ENOMEM (Cannot allocate
 * memory)" / "?". */
size_t sysfmt_args(char *buf, size_t size, const struct vmt_event *ev);
size_t sysfmt_result(char *buf, size_t size, const struct vmt_event *ev);
/* What other records of the trace say about an execve or execveat: the
 * strings its registers point to. */
struct sysfmt_strings {
	const char *file;              /* its FILE record's path; NULL: the address */
	const struct vmt_argv *argv;   /* its ARGV record; NULL: the addresses */
	const struct vmt_ranges *ranges; /* its RANGES record; NULL: the address */
};
/* sysfmt_args, with execve's or execveat's file name, argv and envp count
 * as strace prints them: "execve("/bin/ls", ["ls", "-l"], 0x7ffd... /- 9 vars -/)". */
size_t sysfmt_args_with(char *buf, size_t size, const struct vmt_event *ev,
                        const struct sysfmt_strings *str);

/* How each argument of a plainly printed call looks; the importer of strace
 * logs reads the same rows backwards. */
enum sysfmt_arg {
	SYSFMT_END = 0,
	SYSFMT_ADDR,      /* NULL or 0x... */
	SYSFMT_ULEN,      /* unsigned decimal */
	SYSFMT_INT,       /* int, decimal */
	SYSFMT_HEX,       /* 0 or 0x... */
	SYSFMT_PROT,
	SYSFMT_MAPFLAGS,
	SYSFMT_MADV,
	SYSFMT_MLOCK,
	SYSFMT_MCL,
	SYSFMT_SHMFLG,
	SYSFMT_DIRFD,     /* AT_FDCWD or an int */
	SYSFMT_ATFLAGS,   /* execveat's AT_* flags */
	SYSFMT_MPOL,      /* mbind's mode: MPOL_* and its MPOL_F_* flags */
	SYSFMT_MPOLF,     /* mbind's MPOL_MF_* flags */
	SYSFMT_RFPFLAGS,  /* remap_file_pages' flags (MAP_FILE for 0) */
	SYSFMT_SHSTK,     /* map_shadow_stack's SHADOW_STACK_* flags */
};

#define SYSFMT_AT_FDCWD (-100)

/* The six argument kinds of sys (SYSFMT_END-terminated), or NULL for the
 * calls printed by code of their own (mremap, clone, clone3). */
const uint8_t *sysfmt_arg_kinds(int sys);

/* A value-name table: flags (OR-ed bits) or an enumeration. */
struct sysfmt_name {
	uint64_t value;
	const char *name;
};

struct sysfmt_table {
	const struct sysfmt_name *names;
	size_t count;
	const char *unknown;  /* strace's comment for values it cannot name */
};

extern const struct sysfmt_table sysfmt_prot, sysfmt_map_type, sysfmt_map_flags,
	sysfmt_madvise, sysfmt_mremap, sysfmt_mlock, sysfmt_mcl, sysfmt_clone,
	sysfmt_shmat, sysfmt_at_flags, sysfmt_mpol_mode, sysfmt_mpol_flags, sysfmt_mbind_flags,
	sysfmt_remap_flags, sysfmt_shstk, sysfmt_prctl, sysfmt_uffd_cmd, sysfmt_uffd_mode,
	sysfmt_uffd_ioctls;

/* Parse what the formatter prints for a flags or enum argument:
 * "PROT_READ|PROT_WRITE", "0", "0x3039" followed by its MADV_??? comment, "SIGCHLD",
 * "MAP_PRIVATE|21<<MAP_HUGE_SHIFT".  0 on success, -1 on an unknown name. */
int sysfmt_parse_value(const struct sysfmt_table *t, const char *text,
                       uint64_t *out);

/* "SIGCHLD" for 17, "0" for 0, else the number; parse: name or number. */
const char *sysfmt_signal_name(int sig, char *buf, size_t size);
int sysfmt_signal_from_name(const char *name);

/* "ENOMEM"; NULL if unknown.  Parse: 0 if unknown. */
const char *sysfmt_errno_name(int err);
int sysfmt_errno_from_name(const char *name);

/* glibc's struct clone_args size, which strace prints after clone3's struct. */
#define SYSFMT_CLONE3_SIZE 88

#endif
