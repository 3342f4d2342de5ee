/* apply_mem.c - the calls whose arguments point into the recorded
 * program's memory, replayed with the replay's own: process_madvise's
 * iovec and the uffd (un)registration's struct rebuilt from the event's
 * RANGES record with translated addresses, on this process's own pidfd
 * and userfaultfd; prctl(PR_SET_VMA)'s name and mbind's nodemask from
 * the record (a trace without one: node 0).  A process_madvise that worked on
 * another process is not replayed; one whose pidfd failed (EBADF, ESRCH)
 * gets one that fails so.  The process-wide prctl options are
 * issued as recorded; a mapping call other than mmap (map_shadow_stack)
 * at its translated address.  A call the running kernel lacks fails with
 * the errno it gives, which is the recorded one where the recording's
 * kernel lacked it too.  The simulator gets the recorded event and the
 * record (rp_effect.ranges). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "replay/engine_int.h"
#include "replay/trace.h"
#include "lib/compat.h"

#define UFFD_API_ 0xaa
#define UFFDIO_API_ 0xc018aa3f
#define UFFD_FEATURE_SIGBUS_ (1u << 7)
#define O_CLOEXEC_ 02000000

/* This process's own descriptors, made on first use; a fork child (a new
 * pid) makes its own. */
struct own_fd {
	pid_t pid;
	int fd;
};

static int own_pidfd(void)
{
	static struct own_fd f;
	pid_t me = getpid();
	if (f.pid != me) {
		f.pid = me;
		f.fd = (int)syscall(SYS_pidfd_open, me, 0);
	}
	return f.fd;
}

/* A pidfd of a process that has ended: process_madvise on it is ESRCH.
 * A child that exits at once, reaped; its pidfd stays. */
static int dead_pidfd(void)
{
	static struct own_fd f;
	pid_t me = getpid();
	if (f.pid != me) {
		f.pid = me;
		f.fd = -1;
		pid_t c = fork();
		if (c == 0)
			_exit(0);
		if (c > 0) {
			f.fd = (int)syscall(SYS_pidfd_open, c, 0);
			waitpid(c, NULL, 0);
		}
	}
	return f.fd;
}

/* A process_madvise that succeeded when recorded although none of its
 * ranges was mapped in the caller worked on another process's memory
 * (its pidfd's): the replay has that memory in another replayer, if at
 * all, so the call is not issued (skipped, and said). */
static int on_other_process(const struct rp_engine *e, const struct rp_pstate *p, const struct vmt_ranges *r)
{
	int any = 0;
	for (uint32_t i = 0; i < r->n; i++) {
		if (!r->ranges[i].len)
			continue;
		uint64_t cur = r->ranges[i].start & ~(e->page - 1);
		struct am_piece pc;
		while (am_next_piece(&p->am, &cur, rp_page_up(e, r->ranges[i].start + r->ranges[i].len), &pc))
			if (pc.mapped)
				return 0;
		any = 1;
	}
	return any;
}

/* A userfaultfd whose faults are SIGBUS, never a wait: nothing here
 * reads its events, and a populate of a registered range (a residency
 * record's pages) must fail, not hang.  One per recorded descriptor:
 * VMAs registered with two contexts never merge. */
#define UFFDS 16
static int own_uffd(int recorded)
{
	static struct { pid_t pid; int recorded; int fd; } u[UFFDS];
	static unsigned next;
	pid_t me = getpid();
	unsigned i;
	for (i = 0; i < UFFDS; i++)
		if (u[i].pid == me && u[i].recorded == recorded)
			return u[i].fd;
	i = next++ % UFFDS;   /* more than UFFDS at once: the oldest is reused */
	if (u[i].pid == me && u[i].fd >= 0)
		close(u[i].fd);
	u[i].pid = me;
	u[i].recorded = recorded;
	u[i].fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC_);
	struct { uint64_t api, features, ioctls; } api = { UFFD_API_, UFFD_FEATURE_SIGBUS_, 0 };
	if (u[i].fd >= 0 && ioctl(u[i].fd, UFFDIO_API_, &api) < 0) {
		close(u[i].fd);
		u[i].fd = -1;
	}
	return u[i].fd;
}

/* An address no process can read: a pointer the recording could not
 * read (or did not keep) fails with the kernel's EFAULT here too. */
#define UNREADABLE ((uint64_t)-4096)

static const unsigned long node0[16] = { 1 };   /* mbind's nodemask: node 0 (1024 nodes) */

int rp_range_in_args(int sys)
{
	int addr, len;
	vmt_sys_range_args(sys, &addr, &len);
	return addr >= 0;
}

void rp_call_pointers(struct rp_engine *e, struct rp_pstate *p, const struct vmt_event *rec,
                      struct vmt_event *ev)
{
	(void)p;
	if (!e->be->real_objects)
		return;
	switch (vmt_sys_ranges(rec->sys)) {   /* what the pointer holds: the table's ranges column */
	case VMT_RANGES_NODEMASK: {
		/* the recorded mask (format 5's RANGES record); none read where
		 * the kernel's EFAULT was; a mask not in the trace (older
		 * traces, an strace log, which has no address either where the
		 * call succeeded) this machine's first node, for every mode but
		 * MPOL_DEFAULT and MPOL_LOCAL, which take none */
		const struct vmt_ranges *r = rp_trace_ranges(e->t, rec);
		if (r)
			ev->args[3] = (uint64_t)(uintptr_t)r->nodes;
		else if (rec->args[3] && rec->err == EFAULT)
			ev->args[3] = UNREADABLE;
		else if (rec->args[3] || (!rec->err && (rec->args[2] & 0xff) != 0 && (rec->args[2] & 0xff) != 4))
			ev->args[3] = (uint64_t)(uintptr_t)node0;
		if (ev->args[4] > sizeof node0 * 8 + 1)
			ev->args[4] = sizeof node0 * 8 + 1;   /* maxnode: one more than the bits read */
		break;
	}
	case VMT_RANGES_VMA_NAME: {
		const struct vmt_ranges *r = rp_trace_ranges(e->t, rec);
		ev->args[4] = !r ? (rec->args[4] ? UNREADABLE : 0)
		            : r->name_how == VMT_NAME_STR ? (uint64_t)(uintptr_t)r->name
		            : r->name_how == VMT_NAME_NULL ? 0 : UNREADABLE;
		break;
	}
	}
}

/* The hull of a RANGES record's ranges, recorded addresses. */
static void hull(const struct vmt_ranges *r, uint64_t *lo, uint64_t *hi)
{
	*lo = UINT64_MAX;
	*hi = 0;
	for (uint32_t i = 0; i < r->n; i++) {
		if (r->ranges[i].start < *lo)
			*lo = r->ranges[i].start;
		if (r->ranges[i].start + r->ranges[i].len > *hi)
			*hi = r->ranges[i].start + r->ranges[i].len;
	}
}

int64_t rp_ranges_offset(const struct rp_engine *e, const struct rp_pstate *p, const struct vmt_event *rec)
{
	const struct vmt_ranges *r = rp_trace_ranges(e->t, rec);
	if (e->be->recorded_addresses || !r || !r->n)
		return 0;
	uint64_t a = r->ranges[0].start & ~(e->page - 1);
	return (int64_t)(rp_xlate(e, p, a) - a);
}

#define IOV_MAX_ 1024

void rp_apply_ranges_call(struct rp_engine *e, struct rp_pstate *p, const struct vmt_event *rec,
                          struct vmt_event *ev, struct vr_result *out, struct rp_effect *fx, int64_t *want,
                          int *skipped)
{
	const struct vmt_ranges *r = rp_trace_ranges(e->t, rec);
	struct vmt_range iov[64], *v = iov;
	struct { uint64_t start, len, mode, ioctls; } uffd;
	if (r) {
		uint64_t lo, hi;
		hull(r, &lo, &hi);
		if (r->n) {
			lo = rp_xlate(e, p, lo & ~(e->page - 1));
			hi = lo + rp_page_up(e, hi - (r->ranges[0].start & ~(e->page - 1)));
			*fx = (struct rp_effect){ .lo = lo, .hi = hi, .kind = RP_FX_MODIFY };
		}
		fx->ranges = r;
	}
	if (vmt_sys_ranges(rec->sys) == VMT_RANGES_IOVEC && r && !rec->err && on_other_process(e, p, r)) {
		*skipped = 1;
		*out = (struct vr_result){ .ret = rec->result, .outcome = VR_UNCHANGED };
		rp_say(e, "event %zu (%s): worked on another process's memory when recorded: not replayed",
		    (size_t)(rec - e->t->events), vmt_sys_key(rec->sys));
		return;
	}
	if (e->be->real_objects) {
		switch (vmt_sys_ranges(rec->sys)) {
		case VMT_RANGES_IOVEC:
			/* the pidfd as the recording's failed: none (EBADF), an
			 * ended process's (ESRCH); else this process's own */
			ev->args[0] = (uint64_t)(rec->err == EBADF ? -1 : rec->err == ESRCH ? dead_pidfd() : own_pidfd());
			if (!r) {
				ev->args[1] = UNREADABLE;
				break;
			}
			if (r->n > sizeof iov / sizeof iov[0] && !(v = malloc(r->n * sizeof(*v)))) {
				*out = (struct vr_result){ .ret = -1, .err = ENOMEM, .outcome = VR_FAILED };
				return;
			}
			for (uint32_t i = 0; i < r->n; i++)
				v[i] = (struct vmt_range){ rp_xlate(e, p, r->ranges[i].start), r->ranges[i].len };
			ev->args[1] = (uint64_t)(uintptr_t)v;
			break;
		case VMT_RANGES_UFFDIO_REGISTER:
		case VMT_RANGES_UFFDIO_RANGE:
			ev->args[0] = (uint64_t)own_uffd((int)rec->args[0]);
			if (!r) {
				ev->args[2] = UNREADABLE;
				break;
			}
			uffd.start = rp_xlate(e, p, r->ranges[0].start);
			uffd.len = r->ranges[0].len;
			uffd.mode = r->mode;
			uffd.ioctls = 0;
			ev->args[2] = (uint64_t)(uintptr_t)&uffd;
			break;
		}
	}
	e->be->apply(p->space, ev, NULL, fx, out);
	if (v != iov)
		free(v);
	if (!rec->err)
		*want = rec->result;   /* process_madvise: the bytes advised */
}

void rp_apply_process_call(struct rp_engine *e, struct rp_pstate *p, const struct vmt_event *rec,
                           struct vmt_event *ev, struct vr_result *out, int64_t *want)
{
	struct rp_effect none = { .kind = RP_FX_NONE };
	e->be->apply(p->space, ev, NULL, &none, out);
	if (!rec->err)
		*want = rec->result;
}

void rp_apply_map_call(struct rp_engine *e, struct rp_pstate *p, const struct vmt_event *rec,
                       struct vmt_event *ev, struct vr_result *out, struct rp_effect *fx, int64_t *want)
{
	uint64_t len = rp_page_up(e, rec->args[1]);
	if (!e->be->recorded_addresses && rec->args[0])
		ev->args[0] = rp_xlate(e, p, rec->args[0]);
	*fx = (struct rp_effect){ .kind = RP_FX_CREATE };   /* placed by the kernel: known afterwards */
	e->be->apply(p->space, ev, NULL, fx, out);
	if (out->err || e->be->recorded_addresses)
		return;
	if (!rec->err) {
		am_set(&p->am, (uint64_t)rec->result, (uint64_t)rec->result + len, out->ret - rec->result);
		if (rec->args[0])
			*want = (int64_t)ev->args[0];
	} else {
		munmap((void *)(uintptr_t)out->ret, len);   /* mapped here, failed when recorded */
	}
}
