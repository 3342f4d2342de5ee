/* init.c - the library constructor, fork children and process exit.
 *
 * Environment (set by the vmrec launcher, or by hand):
 *   VMREC_OUT=TRACE   where to record (default: PROGRAM.vmrec.lz4)
 *   VMREC_STACKS=N    call stacks of depth N (0: off)
 *   VMREC_SUD=0       no Syscall User Dispatch safety net
 *   VMREC_RESIDENCY=0 no page residency records (saves a page-table scan per change)
 *   VMREC_RESIDENCY=mincore  ask mincore even where PAGEMAP_SCAN works
 *   VMREC_RESIDENCY=scan     ask for every range, even one known to hold no page
 *   VMREC_MODE=OCTAL  the finished trace's mode (default 0600)
 *   VMREC_LAUNCHER=1  internal: the vmrec launcher finishes the trace
 *   VMREC_STORE=PATH  internal: the process tree's trace store
 *   VMREC_EXEC=...    internal: the execve event handed to a new image
 *   VMREC_TRAMPOLINE=HEX internal: the vmrec launcher traces the tree; the
 *                     recorder's calls go through a `syscall; ret` page
 *                     mapped there (docs/shim.md, "Two recorders")
 *   VMREC_OFF=TRACE   internal: VMREC_OUT renamed by a root that could not
 *                     record, so its tree warns once */
#include "arena.h"
#include "exec.h"
#include "forkgate.h"
#include "hooks.h"
#include "image.h"
#include "init.h"
#include "maps.h"
#include "raw.h"
#include "record.h"
#include "residency.h"
#include "stacks.h"
#include "stackset.h"
#include "empty_ranges.h"
#include "env_self.h"
#include "signals.h"
#include "sud.h"
#include "tramp.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>


static void say(const char *a, const char *b, const char *c)
{
	raw3(SYS_write, 2, a, strlen(a));
	raw3(SYS_write, 2, b, strlen(b));
	raw3(SYS_write, 2, c, strlen(c));
}

static char *put_dec(char *p, unsigned long v)
{
	char tmp[24];
	int n = 0;
	do tmp[n++] = (char)('0' + v % 10); while ((v /= 10));
	while (n)
		*p++ = tmp[--n];
	*p = 0;
	return p;
}

/* The root image makes the store next to the trace (OUT.vmrec-store.PID,
 * the name the launcher expects); later images and processes find it in
 * VMREC_STORE.  No descriptor is kept: the store is a mapping. */
#define STORE_PATH_MAX 4200
static int open_store(const char *out, int *root)
{
	static char path[STORE_PATH_MAX];
	const char *env = getenv("VMREC_STORE");
	struct stat st;
	*root = !env || !*env;
	if (!*root) {
		/* the name as the environment has it: a copy would be one more
		 * page written in every process */
		if (strlen(env) >= STORE_PATH_MAX)
			return -1;
		if (env_self_save(out, env) < 0)
			return -1;
		return vmt_store_attach(&shim.store, env) < 0 ? -1 : 0;
	}
	/* a trace is replaced by rename: never a device, a directory... */
	if (!raw_failed(raw4(SYS_newfstatat, AT_FDCWD, out, &st, AT_SYMLINK_NOFOLLOW)) &&
	    !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		say("vmrec: cannot write the trace (", out,
		    " is not a regular file); the program keeps running, the trace is incomplete\n");
		return -2;
	}
	if (strlen(out) + 40 >= sizeof path)
		return -1;
	put_dec(stpcpy(stpcpy(path, out), ".vmrec-store."), (unsigned long)shim.pid);
	if (env_self_save(out, path) < 0)
		return -1;
	const char *m = getenv("VMREC_MODE");
	unsigned mode = m && *m ? (unsigned)strtoul(m, NULL, 8) & 07777 : 0600;
	const char *l = getenv("VMREC_LAUNCHER");
	if (vmt_store_create(&shim.store, path, out, mode, l && strcmp(l, "1") == 0) < 0)
		return -1;
	return 0;
}

static void default_out(char *buf, size_t cap)
{
	char exe[4096];
	image_exe(exe, sizeof exe);
	const char *base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : "program";
	if (strlen(base) + 16 < cap)
		strcpy(stpcpy(buf, base), ".vmrec.lz4");
}

static void start_image(int root)
{
	struct vmt_event ev;
	uint32_t image = 0, next_file_id = 0;
	int exec = exec_take_event(&ev, &image, &next_file_id);
	shim.image = image;
	shim.next_file_id = next_file_id;
	image_files_reset();
	if (root)
		image_header();
	/* under the launcher the exec's event is the launcher's too, written
	 * at its exec stop, before the loader's calls */
	if (exec && !shim.tramp) {
		struct vmt_record rec = { .type = VMT_REC_EVENT };
		ev.pid = ev.tid = shim.pid;
		ev.latency_ns = shim_now() - ev.time_ns;
		ev.seq_end = shim_seq_now();   /* the exec returned in this image */
		rec.u.event = ev;
		shim_write(&rec);
	}
	/* under the launcher the image's start is the launcher's: it wrote
	 * PROCESS and MAP at the exec stop, and the loader's calls since */
	struct maps_snap m;
	maps_read(&m);        /* failed: no lines, as each read would have had */
	if (!shim.tramp) {
		uint64_t seq = shim_next_seq();
		image_process(seq);
		image_map(seq, &m);
	}
	image_checkpoint_in(exec ? VMT_CK_EXEC : VMT_CK_START, &m);
	maps_release(&m);
}

/* Children that change directory must still find the same trace. */
static char abs_out[4200];

static const char *absolute(const char *path, char *buf, size_t cap)
{
	if (path[0] == '/')
		return path;
	long n = raw2(SYS_getcwd, buf, cap - 2);
	if (raw_failed(n) || strlen(buf) + strlen(path) + 2 > cap)
		return path;
	strcat(strcat(buf, "/"), path);
	return buf;
}

/* Under the launcher, the recorder's first act: the trampoline page at
 * the address the launcher chose (tramp.c).  The launcher's stop for
 * its mmap tells it libvmrec is live here; from then on every call the
 * recorder issues goes through the page and passes its filter.  0, or
 * -1: not recording (the launcher records this process alone). */
static int map_trampoline(void)
{
	const char *v = getenv("VMREC_TRAMPOLINE");
	struct { uint64_t cur, max; } lim;
	if (!v || !*v)
		return 0;
	/* under an address-space limit the launcher records the process
	 * alone: the recorder's reservations would take the program's room */
	if (!raw_failed(raw4(SYS_prlimit64, 0, RLIMIT_AS, 0, &lim)) && lim.cur != RLIM_INFINITY)
		return -1;
	uint64_t at = strtoull(v, NULL, 16);
	if (tramp_map(at) < 0) {
		/* the launcher took its mmap for the page: a call it stops
		 * for, from here, that changes nothing, says it failed */
		raw3(SYS_madvise, at, 0, MADV_NORMAL);
		return -1;
	}
	shim.tramp = at;
	return 0;
}

/* Under the launcher, giving up after the trampoline page was had (no
 * arena, no store: a mount namespace that hides it): the same sign as
 * for no page, so the launcher records the process alone to its end
 * instead of leaving it to a recorder that is not there.  1 when that
 * was said (nothing for the program's stderr: it is recorded). */
static int hand_back(void)
{
	if (!shim.tramp)
		return 0;
	tramp_unuse();     /* the sign must not pass the filter */
	raw3(SYS_madvise, shim.tramp, 0, MADV_NORMAL);
	shim.tramp = 0;
	env_self_hide();
	return 1;
}

__attribute__((constructor)) static void shim_init(void)
{
	/* static: the name may outlive the constructor (shim.out_path, where
	 * getcwd fails), and 4 KiB less of stack is a page fewer touched */
	static char outbuf[4200];
	const char *out = getenv("VMREC_OUT");
	int root;

	if (getenv("VMREC_OFF") && !out)
		return;         /* the root said why it is not recording */
	if (map_trampoline() < 0) {
		env_self_hide();     /* the launcher records this process alone */
		return;
	}

	if (arena_init() < 0) {
		if (!hand_back())
			say("vmrec: ", "no memory for the recorder", "; not recording\n");
		return;
	}
	env_self_locate((void *)shim_init);
	maps_set_self_path(shim_lib_path());
	if (!out || !*out) {
		default_out(outbuf, sizeof outbuf);
		out = outbuf;
	}
	out = absolute(out, abs_out, sizeof abs_out);
	shim.out_path = out;
	/* a new image of a recorded process asks the kernel nothing it was
	 * told: a seccomp filter it inherited may trap any call */
	if (!exec_peek_ids(&shim.pid, &shim.ppid)) {
		shim.pid = (int32_t)raw0(SYS_getpid);
		shim.ppid = (int32_t)raw0(SYS_getppid);
	}
	int st = open_store(out, &root);
	if (st < 0 && hand_back())
		return;
	if (st < 0) {
		if (st == -1)
			say("vmrec: cannot open ", out, ": not recording\n");
		env_self_off();
		return;
	}
	shim.seq = &shim.store.head->seq;
	shim.proc = vmt_store_proc_new(&shim.store, shim.pid);
	shim.enabled = 1;
	shim_threads_init();
	hooks_init();
	const char *res = getenv("VMREC_RESIDENCY");
	shim.residency = !res ? RESIDENCY_MAPPED : strcmp(res, "0") == 0 ? RESIDENCY_OFF :
	                 strcmp(res, "mincore") == 0 ? RESIDENCY_MINCORE : RESIDENCY_MAPPED;
	if (res && strcmp(res, "scan") == 0)
		empty_distrust();   /* a page-table scan for every range */
	else
		empty_init();
	const char *stacks = getenv("VMREC_STACKS");
	if (stacks && atoi(stacks) > 0 && stacks_init(atoi(stacks)) == 0)
		shim.stacks = atoi(stacks);
	start_image(root);
	tramp_patch_thread_exit();
	shim.unpatched = (uint64_t)patch_sites(shim_sites, shim_nsites);
	signals_catch_fatal();
	/* no SIGSYS under the launcher: its filter sees what the hooks miss */
	const char *sud = getenv("VMREC_SUD");
	if (!shim.tramp && (!sud || strcmp(sud, "0") != 0))
		sud_init();
	env_self_hide();
}

void shim_fork_child(struct vmt_store_proc *unborn)
{
	forkgate_child();
	shim.ppid = shim.pid;
	shim.pid = (int32_t)raw0(SYS_getpid);
	shim.image = 0;
	shim.next_file_id = 0;
	shim_forget_threads();
	stackset_after_fork();
	empty_after_fork();
	image_files_reset();
	stacks_forget();
	sud_arm_thread();
	shim.proc = unborn && vmt_store_proc_born(unborn, shim.pid) ? unborn
	                                                           : vmt_store_proc_new(&shim.store, shim.pid);
	uint8_t sud = sud_enter();
	image_process(shim_next_seq());
	image_checkpoint(VMT_CK_FORK);
	sud_leave(sud);
}

void shim_process_exit(int sys, int status)
{
	struct shim_call c;
	if (!shim.enabled)
		return;
	uint8_t sud = sud_enter();
	shim_exit_begin();
	call_begin(&c, sys, (uint64_t)status, 0, 0, 0, 0, 0);
	c.flags |= VMT_EV_NORETURN;
	call_end(&c, 0);
	if (!shim_vfork_child) {
		image_checkpoint(VMT_CK_EXIT);
		shim_process_end(VMT_END_EXIT, status);
	}
	sud_leave(sud);
}

/* For programs that want a VMA-count checkpoint at a point of their own:
 * look it up with dlsym(RTLD_DEFAULT, "vmrec_checkpoint"). */
__attribute__((visibility("default"))) void vmrec_checkpoint(void)
{
	if (!shim.enabled || shim_vfork_child)
		return;
	uint8_t sud = sud_enter();
	image_checkpoint(VMT_CK_REQUEST);
	sud_leave(sud);
}
