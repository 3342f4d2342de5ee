/* exec.c - the execve hook.  A successful execve never returns, so the old
 * image cannot record the event: it reserves the sequence number, writes
 * out every buffered record, and hands the event to the new image in
 * VMREC_EXEC; the new image records it before anything else.  The old
 * image writes the call's FILE and ARGV records (exec_args.c) and builds
 * the new image's environment (exec_env.c), reading the program's strings
 * without faulting (umem.c). */
#include "vmt.h"
#include "exec.h"
#include "forkgate.h"
#include "arena.h"
#include "image.h"
#include "init.h"
#include "raw.h"
#include "record.h"
#include "sud.h"
#include "capture.h"
#include "umem.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#define EXEC_VAR "VMREC_EXEC="

static char *put_u64(char *p, uint64_t v)
{
	char tmp[24];
	int n = 0;
	do tmp[n++] = (char)('0' + v % 10); while ((v /= 10));
	while (n)
		*p++ = tmp[--n];
	return p;
}

static uint64_t get_u64(const char **s)
{
	uint64_t v = 0;
	while (**s >= '0' && **s <= '9')
		v = v * 10 + (uint64_t)(*(*s)++ - '0');
	if (**s == ',')
		(*s)++;
	return v;
}

/* 1 if `path` is an ELF without PT_INTERP: the recorder cannot follow.
 * The header and the program headers (the first 64) in two reads. */
#define PHDRS_MAX 64
static int is_static_elf(int dirfd, const char *path, int flags)
{
	Elf64_Ehdr eh;
	long fd = (flags & AT_EMPTY_PATH) && (!path || !*path) ? -1
	          : raw4(SYS_openat, dirfd, path, O_RDONLY | O_CLOEXEC, 0);
	int interp = 0, elf = 0;
	if (raw_failed(fd) || fd < 0)
		return 0;
	if (raw4(SYS_pread64, fd, &eh, sizeof eh, 0) == (long)sizeof eh &&
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64) {
		elf = 1;
		int n = eh.e_phnum < PHDRS_MAX ? eh.e_phnum : PHDRS_MAX;
		Elf64_Phdr *ph = n ? arena_alloc_raw((size_t)n * sizeof *ph) : NULL;
		long got = ph ? raw4(SYS_pread64, fd, ph, (size_t)n * sizeof *ph, eh.e_phoff) : 0;
		for (long i = 0; !raw_failed(got) && i < got / (long)sizeof *ph; i++)
			if (ph[i].p_type == PT_INTERP)
				interp = 1;
		arena_free(ph, (size_t)n * sizeof *ph);
	}
	raw1(SYS_close, fd);
	return elf && !interp;
}

/* Whether the kernel will run the file with privilege it gains at exec,
 * so that ld.so runs it in secure-execution mode (AT_SECURE) and ignores
 * LD_PRELOAD: a set-user-ID file of another owner than our real uid, a
 * set-group-ID (and group-executable) one of another group, a file with
 * capabilities run by other than root; not on a nosuid mount, nor under
 * no_new_privs (the launcher's filter sets it: there the program runs
 * without the privilege and libvmrec comes). */
static int gains_privilege(int dirfd, const char *path, int flags)
{
	struct stat st;
	struct statfs sf;
	if (!path || raw_failed(raw4(SYS_newfstatat, dirfd, path, &st, flags & AT_EMPTY_PATH)))
		return 0;
	int suid = (st.st_mode & S_ISUID) && st.st_uid != (uid_t)raw0(SYS_getuid);
	int sgid = (st.st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) &&
	           st.st_gid != (gid_t)raw0(SYS_getgid);
	int caps = 0;
	if (!suid && !sgid && raw0(SYS_getuid) != 0) {
		char at[PATH_MAX], *p = at;
		/* getxattr takes a path: relative to dirfd through /proc */
		if (path[0] == '/' || dirfd == AT_FDCWD) {
			p = (char *)path;
		} else {
			p = stpcpy(at, "/proc/self/fd/");
			char num[16], *q = num + sizeof num;
			*--q = 0;
			unsigned v = (unsigned)dirfd;
			do *--q = (char)('0' + v % 10); while ((v /= 10));
			p = stpcpy(p, q);
			*p++ = '/';
			size_t room = (size_t)(at + sizeof at - p);
			if (strlen(path) >= room)
				return 0;
			strcpy(p, path);
			p = at;
		}
		caps = !raw_failed(raw4(SYS_getxattr, p, "security.capability", NULL, 0));
	}
	if (!suid && !sgid && !caps)
		return 0;
	if (raw6(SYS_prctl, PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0, 0) == 1)
		return 0;
	long fd = raw4(SYS_openat, dirfd, path, O_PATH | O_CLOEXEC, 0);
	if (raw_failed(fd))
		return 1;
	int nosuid = !raw_failed(raw2(SYS_fstatfs, fd, &sf)) && (sf.f_flags & ST_NOSUID);
	raw1(SYS_close, fd);
	return !nosuid;
}

/* The one line a preloaded recorder says when it cannot follow an exec. */
static void warn_unrecorded(const char *path, int why)
{
	static const char a[] = "vmrec: ", st[] = " is statically linked: not recorded\n",
	                  pr[] = " runs with privilege (setuid, setgid or capabilities): not recorded\n";
	raw3(SYS_write, 2, a, sizeof a - 1);
	raw3(SYS_write, 2, path, strlen(path));
	if (why == VMT_UNREC_STATIC)
		raw3(SYS_write, 2, st, sizeof st - 1);
	else
		raw3(SYS_write, 2, pr, sizeof pr - 1);
}

/* An END for a vfork child about to become an image the recorder cannot
 * follow: nobody else would say how its pid ends. */
static void vfork_child_end(int why)
{
	struct vmt_record rec = { .type = VMT_REC_END };
	rec.u.end = (struct vmt_end){ .seq = shim_next_seq(), .pid = (int32_t)raw0(SYS_getpid),
	                              .how = VMT_END_UNRECORDED, .status = why };
	shim_vfork_write(&rec);
}

/* The file the call names, as a FILE record (events keep no strings): the
 * path as the program gave it ("" for fexecve's fd), with dev, ino and
 * size where it exists.  The id is the old image's and the new one goes on
 * after it, so it names the same file whichever image writes the event. */
static uint32_t exec_file(int dirfd, const char *path, int flags)
{
	struct stat st;
	if (!path)
		return 0;
	int found = !raw_failed(raw4(SYS_newfstatat, dirfd, path, &st,
	                             flags & (AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)));
	return image_file_new(found ? st.st_dev : 0, found ? st.st_ino : 0,
	                      found ? (uint64_t)st.st_size : 0, path, 0);
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

long exec_call(int sys, int dirfd, const char *path, char *const argv[], char *const envp[],
               int flags)
{
	long nr = sys == VMT_SYS_EXECVE ? SYS_execve : SYS_execveat;
	if (!shim.enabled)
		return nr == SYS_execve ? raw3(nr, path, argv, envp)
		                        : raw6(nr, dirfd, (long)path, (long)argv, (long)envp, flags, 0);
	uint8_t sud = sud_enter();
	/* no other thread's call overlaps the exec: one the kernel ended
	 * between its completion and its record was a seq no record held */
	int gate = !shim_vfork_child && (int32_t)raw0(SYS_getpid) == shim.pid;
	if (gate)
		forkgate_exec();
	struct shim_call c;
	if (sys == VMT_SYS_EXECVE)
		call_begin(&c, sys, (uint64_t)path, (uint64_t)argv, (uint64_t)envp, 0, 0, 0);
	else
		call_begin(&c, sys, (uint64_t)dirfd, (uint64_t)path, (uint64_t)argv, (uint64_t)envp,
		           (uint64_t)flags, 0);
	/* the program's strings, read without faulting; the call itself gets
	 * its own pointers */
	int32_t self = shim_vfork_child ? (int32_t)raw0(SYS_getpid) : shim.pid;
	umem_self(self);
	char *name = arena_alloc(PATH_MAX);
	const char *copy = name && capture_str(name, PATH_MAX, (uint64_t)(uintptr_t)path, &umem_capture) >= 0
	                   ? name : NULL;
	c.file_id = exec_file(dirfd, copy, flags);
	uint32_t envp_end;
	uint64_t envc = capture_envc((uint64_t)(uintptr_t)envp, &envp_end, &umem_capture);
	exec_args_record(c.seq, self, argv, envc, envp_end);
	/* an image libvmrec will not be in: under the launcher, the
	 * launcher records it; preloaded alone, its pid's END says why */
	int unfollowed = !copy ? 0 : is_static_elf(dirfd, copy, flags) ? VMT_UNREC_STATIC
	                 : gains_privilege(dirfd, copy, flags) ? VMT_UNREC_PRIVILEGED : 0;
	call_clock(&c);
	char var[512], *p = stpcpy(var, EXEC_VAR);
	uint64_t vals[] = { c.seq, c.t0, (uint64_t)sys, c.args[0], c.args[1], c.args[2],
	                    c.args[3], c.args[4], shim_vfork_child ? 1 : shim.image + 1,
	                    c.file_id, shim_vfork_child ? shim_vfork_files() : shim.next_file_id,
	                    (uint64_t)self,
	                    shim_vfork_child ? (uint64_t)shim.pid : (uint64_t)shim.ppid };
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		p = put_u64(p, vals[i]);
		*p++ = ',';
	}
	p[-1] = 0;
	size_t bytes = 0;
	/* the event goes to the new image in VMREC_EXEC, but for an image
	 * libvmrec will not be in: this one writes it (below) */
	char **env = exec_env_build(envp, envc, envp_end, unfollowed ? NULL : var, &bytes);
	if (unfollowed) {
		if (!shim.tramp)            /* the launcher records a static image */
			warn_unrecorded(copy, unfollowed);
		c.flags |= VMT_EV_NORETURN;
		call_end(&c, 0);            /* the new image will not record it */
		uint32_t file_id = c.file_id;
		call_begin(&c, sys, c.args[0], c.args[1], c.args[2], c.args[3], c.args[4], 0);
		c.file_id = file_id;
	}
	if (!shim_vfork_child)
		shim_flush_all();
	else
		shim_announce_vfork_child(&c);
	/* the store's bookkeeping: a vfork child becomes a process of its own,
	 * this image hands over to the next, or a static one leaves it */
	struct vmt_store_proc *proc = shim_vfork_child ? NULL : shim.proc;
	if (shim_vfork_child && unfollowed && !shim.tramp)
		vfork_child_end(unfollowed);   /* no image will come to leave the store */
	else if (shim_vfork_child)
		shim_live_add(1);
	else if (unfollowed && !shim.tramp)
		shim_process_end(VMT_END_UNRECORDED, unfollowed);   /* under the launcher: its END */
	else if (proc)
		__atomic_store_n(&proc->state, VMT_PROC_EXECED, __ATOMIC_RELEASE);
	long r = nr == SYS_execve ? raw3(nr, path, argv, env ? env : envp)
	                          : raw6(nr, dirfd, (long)path, (long)argv, (long)(env ? env : envp), flags, 0);
	arena_free(env, bytes);
	arena_free(name, PATH_MAX);
	if (shim_vfork_child && !(unfollowed && !shim.tramp))
		shim_live_add(-1);
	else if (!shim_vfork_child && unfollowed && !shim.tramp)
		shim_live_add(1);   /* failed: still here (its END stays written) */
	if (proc)
		__atomic_store_n(&proc->state, VMT_PROC_RUNNING, __ATOMIC_RELEASE);
	if (unfollowed) {               /* failed after all: already recorded */
		if (!shim_vfork_child)
			shim_self.depth--;
	} else {
		call_end(&c, r);
	}
	if (gate)
		forkgate_open();
	sud_leave(sud);
	return r;
}

static char **find_exec_var(void)
{
	extern char **environ;
	char **e = environ;
	for (; e && *e; e++)
		if (starts(*e, EXEC_VAR))
			return e;
	return NULL;
}

/* The pid and ppid the old image handed over (the 12th and 13th values). */
int exec_peek_ids(int32_t *pid, int32_t *ppid)
{
	char **e = find_exec_var();
	if (!e)
		return 0;
	const char *s = *e + strlen(EXEC_VAR);
	for (int i = 0; i < 11; i++)
		get_u64(&s);
	if (!*s)
		return 0;               /* an older recorder's variable */
	*pid = (int32_t)get_u64(&s);
	*ppid = (int32_t)get_u64(&s);
	return *pid > 0;
}

int exec_take_event(struct vmt_event *ev, uint32_t *image, uint32_t *next_file_id)
{
	char **e = find_exec_var();
	if (!e)
		return 0;
	const char *s = *e + strlen(EXEC_VAR);
	memset(ev, 0, sizeof *ev);
	ev->seq = get_u64(&s);
	ev->time_ns = get_u64(&s);
	ev->sys = (uint16_t)get_u64(&s);
	for (int i = 0; i < 5; i++)
		ev->args[i] = get_u64(&s);
	*image = (uint32_t)get_u64(&s);
	ev->file_id = (uint32_t)get_u64(&s);
	*next_file_id = (uint32_t)get_u64(&s);
	ev->flags = VMT_EV_NORETURN;
	for (; *e; e++)                 /* remove it: the program never sees it */
		e[0] = e[1];
	return 1;
}
