/* vmt.h - the vmrec trace format library: one writer and one reader that
 * every vmrec tool uses.  The byte format is specified in
 * docs/trace-format.md; this header is the only way tools touch it.
 *
 * Conventions (after lz4frame.h):
 *  - opaque contexts with open/close pairs;
 *  - functions return 0 (or a count) on success and a negative VMT_E* code
 *    on failure; vmt_strerror() names it, vmt_reader_error() / 
 *    vmt_writer_error() give a one-line human message with detail;
 *  - a preferences struct whose all-zero value means "defaults";
 *  - pointers inside a record returned by the reader stay valid until the
 *    next vmt_reader_next() call on the same reader.
 */
#ifndef VMT_H
#define VMT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VMT_FORMAT_VERSION 6     /* written; readers also read 1 to 5 */
#define VMT_FORMAT_OLDEST 1

/* ---- errors -------------------------------------------------------- */
enum vmt_error {
	VMT_OK = 0,
	VMT_EIO = -1,        /* read/write failed (errno kept in the message) */
	VMT_ENOMEM = -2,
	VMT_EFOREIGN = -3,   /* not a vmrec trace at all */
	VMT_EVERSION = -4,   /* a vmrec trace of an unsupported version */
	VMT_ECORRUPT = -5,   /* a frame or record does not decode */
	VMT_ETRUNCATED = -6, /* ends inside a frame (the rest was lost) */
	VMT_EEMPTY = -7,     /* zero bytes */
	VMT_EINVAL = -8,     /* bad argument from the caller */
	VMT_ENOSPC = -9,     /* output full; the writer marked itself failed */
};
const char *vmt_strerror(int err);

/* ---- raw system call results --------------------------------------- */
/* A system call's raw result (the kernel's, not libc's -1 and errno) in
 * [-VMT_MAX_ERRNO, -1] is -errno; anything else is the call's value.  The
 * one test of it for every tool (and the errno a record may hold). */
#define VMT_MAX_ERRNO 4095
static inline int vmt_raw_failed(long r)
{
	return (unsigned long)r >= -(unsigned long)VMT_MAX_ERRNO;
}

/* ---- pages --------------------------------------------------------- */
/* x86-64's base page: the page size of a trace whose header gives none,
 * and the unit of LAYOUT records and of the encoding's address steps. */
#define VMT_PAGE_SHIFT 12
#define VMT_PAGE (1u << VMT_PAGE_SHIFT)

/* ---- system calls -------------------------------------------------- */
/* Stable numbering: these values are stored in traces.  One row each in
 * vmt_syscalls.def, append only. */
enum vmt_sys {
	VMT_SYS_NONE = 0,
#define SYSCALL(id, ...) VMT_SYS_##id,
#include "vmt_syscalls.def"
#undef SYSCALL
	VMT_SYS_COUNT
};
/* What a successful call does to its process's address space. */
enum vmt_effect {
	VMT_FX_NONE = 0,
	VMT_FX_MAP,       /* a new mapping at the result (replacing where MAP_FIXED) */
	VMT_FX_UNMAP,     /* removes the range */
	VMT_FX_REMAP,     /* mremap: moves or resizes the range */
	VMT_FX_CHANGE,    /* changes what the range is (protection, advice, lock, seal); needs it mapped */
	VMT_FX_BRK,       /* moves the break: grows or shrinks the heap */
	VMT_FX_ATTACH,    /* shmat: a segment at the result, its size in the event's FILE record */
	VMT_FX_DETACH,    /* shmdt: removes the segment attached at the address */
	VMT_FX_PROCESS,   /* process-wide state, no range (mlockall) */
	VMT_FX_TASK,      /* a new task: fork, vfork, clone */
	VMT_FX_EXEC,      /* a new image */
	VMT_FX_EXIT,      /* a task ends */
};
/* Which pages the recorder asks were resident just before a call (the
 * table's `residency` column). */
enum vmt_residency_kind {
	VMT_RESID_NONE = 0,
	VMT_RESID_RANGE,      /* the range of its address and length arguments */
	VMT_RESID_BRK,        /* a lower break: the heap between it and the old one */
	VMT_RESID_RANGES,     /* each range of the event's RANGES record */
};
/* What a call's RANGES record holds, read from the caller's memory (the
 * table's `ranges` column; the kind is stored in the record). */
enum vmt_ranges_kind {
	VMT_RANGES_NONE = 0,
	VMT_RANGES_IOVEC = 1,           /* process_madvise: args[1], args[2] struct iovec */
	VMT_RANGES_UFFDIO_REGISTER = 2, /* ioctl(UFFDIO_REGISTER): the range and its mode */
	VMT_RANGES_UFFDIO_RANGE = 3,    /* ioctl(UFFDIO_UNREGISTER): the range */
	VMT_RANGES_VMA_NAME = 4,        /* prctl(PR_SET_VMA): no range (registers), the name */
	VMT_RANGES_NODEMASK = 5,        /* mbind: no range (registers), the nodemask (format 5) */
};
/* Which file a call's FILE record names (the table's `file` column). */
enum vmt_file_kind {
	VMT_FILE_NONE = 0,
	VMT_FILE_FD,          /* args[4], unless args[3] has MAP_ANONYMOUS or it is < 0 */
	VMT_FILE_SHMID,       /* args[0], a System V segment */
	VMT_FILE_PATH,        /* args[0], a path from the working directory */
	VMT_FILE_PATH_AT,     /* args[1] from the directory args[0], args[4]'s AT_* flags */
};
const char *vmt_sys_name(int sys);          /* "mmap"; NULL if unknown */
/* The row's id in lower case, unique where names repeat: "mmap",
 * "prctl_set_thp_disable", "uffdio_register"; for results and tables
 * that name rows.  NULL if unknown. */
const char *vmt_sys_key(int sys);
int vmt_sys_from_key(const char *key);      /* VMT_SYS_NONE if unknown */
/* The first row of that name (rows sharing a number share the name:
 * prctl, ioctl); VMT_SYS_NONE if unknown. */
int vmt_sys_from_name(const char *name);
/* x86-64 syscall number -> the first row with that number; VMT_SYS_NONE
 * if the table has none.  Where rows share a number (match), the row of
 * a call is vmt_sys_of_call's. */
int vmt_sys_from_nr(long nr);
/* The row a call with these registers is, `match` included: VMT_SYS_NONE
 * when it is not recorded (an ioctl that is no uffd registration). */
int vmt_sys_of_call(long nr, const uint64_t args[6]);
/* The row's match: 1 with *arg and *value set (the call is the row when
 * (uint32_t)args[*arg] == *value), 0 for a row that takes every call of
 * its number. */
int vmt_sys_match(int sys, int *arg, uint32_t *value);
int vmt_sys_residency(int sys);             /* enum vmt_residency_kind */
int vmt_sys_ranges(int sys);                /* enum vmt_ranges_kind */
int vmt_sys_file(int sys);                  /* enum vmt_file_kind */
long vmt_sys_nr(int sys);                   /* vmt_sys -> x86-64 number, -1 */
int vmt_sys_nargs(int sys);                 /* arguments the call takes */
int vmt_sys_effect(int sys);                /* enum vmt_effect; VMT_FX_NONE if unknown */
/* The range a call names: the indexes of its address and length
 * arguments, -1 for none (shmat: an address, no length). */
void vmt_sys_range_args(int sys, int *addr, int *len);

/* ---- records --------------------------------------------------------- */

/* Event flags. */
#define VMT_EV_TRAPPED   0x0001u /* caught by the slow (trap) path */
#define VMT_EV_NORETURN  0x0002u /* no result: exit, successful execve */
#define VMT_EV_THREAD    0x0004u /* clone/clone3 created a thread */
#define VMT_EV_LOADER    0x0008u /* issued by the dynamic loader */
#define VMT_EV_LAUNCHER  0x0010u /* recorded by the vmrec launcher (ptrace), not libvmrec */

/* One system call.  args[] are the raw register values as the kernel saw
 * them (clone3: args[0] is the struct's flags word, args[1] its
 * stack, args[2] its stack_size; see docs/trace-format.md). */
struct vmt_event {
	uint64_t seq;        /* the tree's sequence counter at the call's entry */
	/* the counter when the call had returned (format 4): every record
	 * with seq >= seq_end began after this call ended, so [seq, seq_end)
	 * is the call's interval; 0: not known (format 1-3).  A writer given
	 * 0 stores seq + 1. */
	uint64_t seq_end;
	uint64_t time_ns;    /* CLOCK_MONOTONIC at entry */
	uint64_t latency_ns; /* entry to return */
	int32_t pid, tid;
	uint16_t sys;        /* enum vmt_sys */
	uint16_t flags;      /* VMT_EV_* */
	int32_t err;         /* errno, 0 on success */
	int64_t result;      /* raw return value (-1 when err != 0) */
	uint64_t args[6];
	uint32_t stack_id;   /* 0: none; else a VMT_REC_STACK id of this pid */
	uint32_t file_id;    /* 0: none; else a VMT_REC_FILE id of this pid */
};

/* One range of a RANGES record. */
struct vmt_range {
	uint64_t start, len;
};

/* How a VMA_NAME RANGES record's name pointer read. */
enum vmt_name_how {
	VMT_NAME_NULL = 0,    /* NULL: the call clears the name */
	VMT_NAME_STR = 1,     /* name holds it */
	VMT_NAME_FAULT = 2,   /* could not be read, or longer than VMT_NAME_MAX */
};
#define VMT_NAME_MAX 255

/* What an event's arguments point to in the caller's memory, where that
 * is its range (format 4): the ranges of a process_madvise's iovec or a
 * uffd (un)registration, the name of a prctl(PR_SET_VMA).  Written right
 * before the event with this seq and pid (a reference, as ARGV's); none
 * when the memory could not be read (the kernel's EFAULT). */
struct vmt_ranges {
	uint64_t seq;
	int32_t pid;
	uint32_t kind;        /* enum vmt_ranges_kind, the event's row's */
	uint32_t n;           /* <= VMT_RANGES_MAX */
	const struct vmt_range *ranges;
	uint64_t mode;        /* UFFDIO_REGISTER: the struct's mode */
	uint64_t ioctls;      /* UFFDIO_REGISTER: the ioctls the kernel gave back (0: failed) */
	uint32_t name_how;    /* VMA_NAME: enum vmt_name_how */
	const char *name;     /* VMA_NAME and VMT_NAME_STR: the name */
	uint32_t nwords;      /* NODEMASK: the mask's words read (<= VMT_NODEMASK_WORDS) */
	uint64_t nodes[16];   /* NODEMASK: nodes 0-1023, bit n of word n / 64 */
	/* IOVEC (format 6): the process the pidfd named when recorded (its
	 * fdinfo's Pid line; the caller's own for PIDFD_SELF), -1 one that
	 * had ended, 0 not known (no pidfd, older traces) */
	int32_t target;
};
#define VMT_NODEMASK_WORDS 16   /* 1024 nodes: what a recorder reads of a nodemask */
#define VMT_RANGES_MAX 1024   /* the kernel's UIO_MAXIOV */

/* Pages [first, first + count) of a residency record's range. */
struct vmt_run {
	uint64_t first, count;
};

/* Pages of [start, start + npages * page_size) that were resident just
 * before event `seq` of `pid`: bit i of bits[i / 8] (LSB first), and the
 * same as runs (ascending, disjoint, not empty, within npages).  Readers
 * fill in both; a writer takes runs when runs is set or bits is NULL,
 * else bits. */
struct vmt_residency {
	uint64_t seq;
	int32_t pid;
	uint64_t start;
	uint64_t npages;
	const uint8_t *bits; /* (npages + 7) / 8 bytes */
	uint32_t nruns;
	const struct vmt_run *runs;
};

struct vmt_host {
	char kernel[65];      /* uname -r */
	char machine[32];     /* uname -m */
	char cpu[128];        /* model name */
	char glibc[32];       /* gnu_get_libc_version() */
	char thp_enabled[32]; /* the selected word of .../transparent_hugepage/enabled */
	char thp_defrag[32];
	uint32_t page_size;
	uint32_t cores;
	uint64_t memory_bytes;
	uint64_t hpage_pmd_size;
	uint64_t max_map_count;
	uint64_t mmap_min_addr;
};

/* The first record of a trace. */
struct vmt_header {
	uint32_t version;     /* VMT_FORMAT_VERSION when written */
	uint64_t start_realtime_ns;
	struct vmt_host host;
	const char *cmdline;  /* argv joined by single spaces */
};

/* A process image began: the first image of a pid, or a new one after a
 * successful execve. */
struct vmt_process {
	uint64_t seq;         /* global position: before any event of this image */
	uint64_t time_ns;
	int32_t pid, ppid;
	uint32_t image;       /* 0 for the first image of pid, +1 per exec */
	const char *exe;      /* /proc/self/exe */
	const char *cmdline;  /* argv joined by single spaces */
	uint32_t origin;      /* VMT_ORIGIN_* (format 5); 0 not said */
};
/* Who recorded an image from its start, and how it ran. */
#define VMT_ORIGIN_PRELOAD   0x1u /* libvmrec, from its constructor on */
#define VMT_ORIGIN_LAUNCHER  0x2u /* the vmrec launcher, from its execve on */
#define VMT_ORIGIN_UNPRIVILEGED 0x4u /* a setuid or setgid file run without the
                                      * ids it would get natively (traced by an
                                      * unprivileged launcher: no_new_privs) */

#define VMT_PROT_READ   0x1u
#define VMT_PROT_WRITE  0x2u
#define VMT_PROT_EXEC   0x4u
#define VMT_VMA_SHARED   0x1u /* 's' in /proc/PID/maps (else private) */
#define VMT_VMA_RECORDER 0x2u /* the recorder's own mapping, not the program's */

struct vmt_vma {
	uint64_t start, end;
	uint64_t offset;      /* file offset in bytes */
	uint32_t prot;        /* VMT_PROT_* */
	uint32_t flags;       /* VMT_VMA_* */
	uint32_t file_id;     /* 0: anonymous */
	const char *name;     /* "[heap]", "[stack]", "[vdso]", path, or "" */
};

/* The memory map of a process image when the recorder started in it
 * (MAP), or of a process at a checkpoint (LAYOUT, format version 4: the
 * checkpoint's seq and pid; every address a multiple of VMT_PAGE, offset 0,
 * name "" but for names in brackets, "[heap]", "[stack]", "[vdso]"...). */
struct vmt_map {
	uint64_t seq;
	int32_t pid;
	uint32_t nvma;
	const struct vmt_vma *vmas;
};

enum vmt_checkpoint_reason {
	VMT_CK_START = 1,
	VMT_CK_EXEC = 2,
	VMT_CK_EXIT = 3,
	VMT_CK_REQUEST = 4,
	VMT_CK_FORK = 5,      /* in the child, right after fork */
};

struct vmt_checkpoint {
	uint64_t seq;         /* taken after every event < seq of this pid */
	int32_t pid;
	uint32_t reason;      /* enum vmt_checkpoint_reason */
	uint64_t vma_count;   /* every VMA of the process, as /proc/PID/maps */
	uint64_t recorder_vmas; /* of which the recorder's own */
};

struct vmt_file {
	uint32_t id;          /* > 0, unique within pid */
	int32_t pid;
	uint64_t dev, ino, size;
	const char *path;
	uint64_t fs_type;     /* its file system's statfs f_type (format 5); 0 not known */
};
/* fs_type values a tool acts on (linux/magic.h) */
#define VMT_FS_HUGETLBFS 0x958458f6u
#define VMT_FS_TMPFS     0x01021994u

/* A loaded object, for offline symbolisation of stacks. */
struct vmt_module {
	int32_t pid;
	uint64_t start, end;  /* the object's mapped text range */
	uint64_t offset;      /* file offset mapped at start */
	uint64_t load_bias;   /* address of the ELF's vaddr 0 */
	uint32_t build_id_len;
	uint8_t build_id[20];
	const char *path;
};

/* How an array of an ARGV record ends. */
enum vmt_argv_end {
	VMT_ARGV_NULL = 0,    /* its NULL terminator came next */
	VMT_ARGV_MORE = 1,    /* more elements followed (argv: the first ones are kept) */
	VMT_ARGV_FAULT = 2,   /* the next pointer could not be read; with none
	                         read the array was not read at all (NULL, or
	                         a bad address): it prints as its address */
};

enum vmt_arg_kind {
	VMT_ARG_STR = 0,      /* the whole string */
	VMT_ARG_CUT = 1,      /* its first bytes: the string goes on */
	VMT_ARG_FAULT = 2,    /* could not be read: addr is the pointer */
};

struct vmt_arg {
	uint32_t kind;        /* enum vmt_arg_kind */
	const char *str;      /* STR, CUT; NULL for FAULT */
	uint64_t addr;        /* FAULT */
};

/* What an execve's or execveat's argv and envp held (format version 3):
 * argv bounded as strace -s 32 shows it, envp counted. */
struct vmt_argv {
	uint64_t seq;         /* the call's event (a reference, not a position) */
	int32_t pid;
	uint32_t argc;        /* elements kept */
	uint32_t argv_end;    /* enum vmt_argv_end */
	const struct vmt_arg *args;
	uint64_t envc;        /* envp's elements before its end */
	uint32_t envp_end;    /* VMT_ARGV_NULL or VMT_ARGV_FAULT */
};

struct vmt_stack {
	uint32_t id;          /* > 0, unique within pid */
	int32_t pid;
	uint32_t depth;
	const uint64_t *ips;  /* innermost first */
};

/* How a process ended: written by the process at exit or by a fatal
 * signal the recorder caught, or by whoever finished the trace for a
 * process that never said (docs/trace-format.md, END). */
enum vmt_end_how {
	VMT_END_EXIT = 1,     /* status: the exit status */
	VMT_END_SIGNAL = 2,   /* status: the signal that killed it */
	VMT_END_VANISHED = 3, /* ended without a word, how is not known */
	VMT_END_UNRECORDED = 4, /* exec'd a program the recorder cannot follow;
	                         * status: why (VMT_UNREC_*) */
};
#define VMT_UNREC_STATIC     1  /* statically linked: no loader to preload into */
#define VMT_UNREC_PRIVILEGED 2  /* runs with privilege it gains at exec (setuid,
                                 * setgid, file capabilities): ld.so ignores LD_PRELOAD */

struct vmt_end {
	uint64_t seq;         /* after every event of this pid */
	int32_t pid;
	uint32_t how;         /* enum vmt_end_how */
	int32_t status;
	uint64_t lost;        /* records of this pid the recorder lost */
};

enum vmt_rec_type {
	VMT_REC_HEADER = 1,
	VMT_REC_PROCESS,
	VMT_REC_MAP,
	VMT_REC_CHECKPOINT,
	VMT_REC_FILE,
	VMT_REC_MODULE,
	VMT_REC_STACK,
	VMT_REC_RESIDENCY,
	VMT_REC_EVENT,
	VMT_REC_END,          /* format version 2 */
	VMT_REC_ARGV,         /* format version 3 */
	/* 12 is taken on the wire: RESIDENCY coded by runs (version 3) */
	VMT_REC_LAYOUT = 13,  /* format version 4 */
	VMT_REC_RANGES = 14,  /* format version 4 */
};

struct vmt_record {
	int type;             /* enum vmt_rec_type */
	union {
		struct vmt_header header;
		struct vmt_process process;
		struct vmt_map map;
		struct vmt_map layout;
		struct vmt_checkpoint checkpoint;
		struct vmt_file file;
		struct vmt_module module;
		struct vmt_stack stack;
		struct vmt_residency residency;
		struct vmt_event event;
		struct vmt_end end;
		struct vmt_argv argv;
		struct vmt_ranges ranges;
	} u;
};

/* ---- writer ---------------------------------------------------------- */
/* A writer buffers records of ONE thread of ONE process and appends them to
 * the file as whole, self-contained chunks (each an LZ4 frame, with the
 * metadata records in skippable frames), so any number of writers in any
 * number of processes may share one O_APPEND file.  A writer is not
 * thread-safe: use one per thread.
 *
 * Allocation: by default malloc/free.  The shim passes its own allocator
 * (memory that is never the recorded program's heap); with one set, the
 * writer never calls malloc, stdio or anything that takes a lock. */
struct vmt_alloc {
	void *(*alloc)(size_t size, void *opaque);
	void (*free)(void *ptr, size_t size, void *opaque);
	void *opaque;
};

struct vmt_writer_prefs {
	size_t chunk_bytes;        /* uncompressed bytes per chunk; 0: 64 KiB */
	int compression_level;     /* 0: lz4 fast default */
	const struct vmt_alloc *alloc; /* NULL: malloc/free */
	const struct vmt_sink *sink;   /* NULL: write(2) to the fd */
};

/* Where a writer puts each frame it completes (a header or a chunk of
 * `nrecords` records, the writer's oldest not yet put): the shim's trace
 * store.  0, or a negative VMT_E* that marks the writer failed. */
struct vmt_sink {
	int (*put)(void *opaque, const uint8_t *frame, size_t len, uint32_t nrecords);
	void *opaque;
};

struct vmt_writer;

/* Open `fd` (already opened O_WRONLY|O_APPEND by the caller; not closed by
 * vmt_writer_close) for one thread of pid/tid. */
struct vmt_writer *vmt_writer_fdopen(int fd, int32_t pid, int32_t tid,
                                     const struct vmt_writer_prefs *prefs);
/* Write a new trace to `path` (for tools): into a temporary file beside
 * it, mode 0600, renamed over `path` by a vmt_writer_close that met no
 * error, removed by vmt_writer_discard or a failed close; never through
 * a symlink (vmt_output_open below).  NULL on failure with *err set;
 * vmt_writer_open_error() then says "PATH: why". */
struct vmt_writer *vmt_writer_open(const char *path,
                                   const struct vmt_writer_prefs *prefs,
                                   int *err);
const char *vmt_writer_open_error(void);
/* Append one record; the chunk is written out when full. */
int vmt_write(struct vmt_writer *w, const struct vmt_record *rec);
/* Write out what is buffered as a chunk now (async-signal-safe when a
 * custom allocator is used). */
int vmt_writer_flush(struct vmt_writer *w);
/* Flush and free.  Returns the first error the writer met, if any. */
int vmt_writer_close(struct vmt_writer *w);
/* A one-line description of the writer's first error, or "". */
const char *vmt_writer_error(const struct vmt_writer *w);
/* Free without writing what is buffered: for a fork child's copy of its
 * parent's writer (the parent writes those records itself), or to drop a
 * trace vmt_writer_open began (the output stays as it was).  Uses only the
 * writer's allocator, so it is safe right after fork. */
void vmt_writer_discard(struct vmt_writer *w);

/* ---- reader ---------------------------------------------------------- */
enum vmt_read_order {
	/* events and records merged into global seq order; memory grows with
	 * the chunks that overlap in seq (about one per live thread), at most
	 * 4096 of them (docs/trace-format.md, "Merge order") */
	VMT_ORDER_SEQ = 0,
	VMT_ORDER_FILE = 1,  /* as stored: fastest, constant memory */
};

struct vmt_reader_prefs {
	int order;           /* enum vmt_read_order */
};

struct vmt_reader;

/* NULL on failure with *err set; vmt_reader_open_error() then has the
 * one-line message ("trace.lz4: not a vmrec trace (bad magic)"). */
struct vmt_reader *vmt_reader_open(const char *path,
                                   const struct vmt_reader_prefs *prefs,
                                   int *err);
const char *vmt_reader_open_error(void);

/* The header record (always present in a readable trace; vmt_reader_next
 * never returns it). */
const struct vmt_header *vmt_reader_header(const struct vmt_reader *r);

/* 1: *rec filled; 0: end of trace; < 0: error (vmt_reader_error()).
 * A trace cut off inside a chunk ends with VMT_ETRUNCATED after every
 * complete chunk was returned; one with damaged chunks in the middle
 * returns every good chunk, then VMT_ECORRUPT.  Errors stick. */
int vmt_reader_next(struct vmt_reader *r, struct vmt_record *rec);
const char *vmt_reader_error(const struct vmt_reader *r);

struct vmt_reader_stats {
	uint64_t file_bytes;      /* size of the file */
	uint64_t good_bytes;      /* bytes in complete chunks */
	uint64_t lost_bytes;      /* bytes after the last complete chunk,
	                             and in damaged chunks skipped */
	uint64_t chunks;
	uint64_t records;
	uint64_t events;
};
void vmt_reader_stats(const struct vmt_reader *r, struct vmt_reader_stats *st);
/* What the seq order did to put calls that overlapped in time in an order
 * the kernel could have had (docs/trace-format.md, "Order"), so far. */
struct vmt_order_call {
	uint64_t seq;
	int32_t pid, tid;        /* tid 0: the image's initial map */
	uint16_t sys;            /* VMT_SYS_NONE: the initial map */
};
enum vmt_order_verdict {
	VMT_ORDER_MAPPED = 1,    /* given a range that was still mapped */
	VMT_ORDER_UNMAPPED = 2,  /* succeeded on a range that was not (all) mapped */
	VMT_ORDER_BRK = 3,       /* its result contradicts the break */
};
#define VMT_ORDER_CONFLICTS 8
struct vmt_order_conflict {
	int verdict;             /* enum vmt_order_verdict */
	struct vmt_order_call call;   /* the call that could not have happened */
	struct vmt_order_call with;   /* what mapped the range / set the break (seq 0: nothing) */
	uint64_t start, end;     /* the range at issue (BRK: the result, twice) */
	uint64_t brk;            /* BRK: the break then */
};
struct vmt_order_stats {
	uint64_t overlapped;     /* calls that overlapped in time a call of their process */
	uint64_t reordered;      /* put before a call that began earlier and could not have
	                            happened yet (the munmap before the mmap given its range) */
	uint64_t undecided;      /* overlapping calls on the same pages that the recording
	                            cannot order: left in entry order */
	uint64_t impossible;     /* calls no order of the intervals makes possible */
	uint64_t unknown;        /* events without an end (format 1-3): entry order */
	struct vmt_order_conflict conflicts[VMT_ORDER_CONFLICTS];   /* the first ones */
	size_t nconflicts;
	/* calls that overlapped in time a call of their process on the same
	 * or neighbouring pages: which took the mmap_lock first decides which
	 * VMAs merged, and where either order was possible no record tells */
	uint64_t near;
	struct vmt_order_near {
		int32_t pid;
		struct vmt_order_call first, then;   /* the process's first such pair, in trace order */
	} nears[VMT_ORDER_CONFLICTS];            /* of the first processes that had one */
	size_t nnears;
};
void vmt_reader_order_stats(const struct vmt_reader *r, struct vmt_order_stats *st);

void vmt_reader_close(struct vmt_reader *r);

/* ---- checking a trace ---------------------------------------------- */
/* The rules a trace must follow beyond decoding, in one place
 * (vmt_check.c): `vmtrace check` and vmreplay (before any target replays)
 * both apply them, so a trace one accepts the other accepts.  Records are
 * fed in seq order (VMT_ORDER_SEQ), one at a time, as they are read. */
struct vmt_check;

/* NULL when out of memory.  The header gives the page size and version. */
struct vmt_check *vmt_check_new(const struct vmt_header *h);
/* NULL, or the record's first problem (a phrase; valid until the next call). */
const char *vmt_check_record(struct vmt_check *c, const struct vmt_record *rec);
/* After the last record: references to stacks and files never defined. */
const char *vmt_check_end(struct vmt_check *c);
/* After the last record, the reader's order (vmt_reader_order_stats):
 * NULL when every call could have happened where the order puts it, else
 * the first that could not, named with what it conflicts with. */
const char *vmt_check_order(struct vmt_check *c, const struct vmt_order_stats *st);
size_t vmt_check_processes(const struct vmt_check *c);

/* How processes ended, from their END records (format version 2; a
 * version 1 trace has none): counts per enum vmt_end_how, the records the
 * recorder lost, and the first VMT_CHECK_ODD ends that were not an exit. */
#define VMT_CHECK_ODD 32
struct vmt_check_ends {
	uint64_t how[VMT_END_UNRECORDED + 1], lost;
	struct vmt_end odd[VMT_CHECK_ODD];
	size_t nodd;
};
const struct vmt_check_ends *vmt_check_ends(const struct vmt_check *c);
/* 1 when the header's format version is one this library reads. */
int vmt_check_version(const struct vmt_header *h);
uint64_t vmt_check_records(const struct vmt_check *c);   /* fed so far */
void vmt_check_free(struct vmt_check *c);

/* The whole file: 0 when it reads to its end and follows the rules; 1 when
 * the reader stopped at damage or truncation after records that follow
 * them (replayable up to there); -1 when it cannot be opened or breaks a
 * rule.  Not 0: a one-line message in msg ("PATH: bad: ... (record N)" or
 * the reader's own message). */
int vmt_check_file(const char *path, char *msg, size_t len);

/* ---- output files ------------------------------------------------- */
/* The one way vmrec writes an output file (a trace, a results file, a
 * report; vmt_output.c): into a new temporary file beside it, created
 * O_EXCL|O_NOFOLLOW with exactly the mode asked (not the umask's), then
 * renamed over the output.  So no symlink is followed (one at the output's
 * name is replaced, never written through), a reader never sees half a
 * file, a failed write leaves the old file as it was, and a hard link to
 * the old file keeps the old contents.  An existing output that is not a
 * regular file or a symlink (a directory, a device, a FIFO) is refused.
 * The directories leading to it are the caller's to choose, and are
 * resolved as usual.
 *
 * Here, in the trace library, because both the trace store's finisher
 * (which runs inside recorded programs: raw system calls only, no errno,
 * no allocation) and every tool need it, and lib/ builds on traces/; the
 * tools use it through lib/output.h.  docs/output.md says what it does. */

/* The modes outputs are created with (docs/output.md). */
#define VMT_OUTPUT_MODE_PRIVATE 0600u  /* traces, results: command lines, paths */
#define VMT_OUTPUT_MODE_SHARED  0644u  /* reports, made to be passed around */

/* Refusals of vmt_output_open beyond errno's. */
#define VMT_OUTPUT_EEMPTY  (-5000)      /* an empty file name */
#define VMT_OUTPUT_ENOTREG (-5001)      /* exists, and is not a regular file or a symlink */

struct vmt_output {
	const char *path;                  /* the output (the caller's string) */
	char tmp[PATH_MAX + 32];           /* PATH.vmrec-tmp.PID */
	int fd;                            /* the temporary file's, -1 when none */
	int pid;                           /* whose it is: a fork child's abort leaves it */
};

/* Create the temporary file for `path` with `mode`: its descriptor (also
 * in o->fd), or a negative errno or VMT_OUTPUT_E*. */
int vmt_output_open(struct vmt_output *o, const char *path, unsigned mode);
/* Close the descriptor (unless the caller did: o->fd = -1) and rename the
 * temporary file over the output: 0, or a negative errno (the temporary
 * file is then removed and the output left as it was). */
int vmt_output_commit(struct vmt_output *o);
/* Close and remove the temporary file: the output stays as it was.  In
 * a fork child of the process that opened it, only close. */
void vmt_output_abort(struct vmt_output *o);
/* A phrase for a vmt_output_* failure ("empty file name", strerror's). */
const char *vmt_output_error(int err);

/* ---- host description ------------------------------------------------ */
/* Fill *h from this machine (uname, /proc, /sys).  Never allocates. */
void vmt_host_probe(struct vmt_host *h);

#ifdef __cplusplus
}
#endif
#endif
