/* apply_mem.c - the calls whose arguments point into the recorded
 * program's memory, replayed with the replay's own: process_madvise's
 * iovec and the uffd (un)registration's struct rebuilt from the event's
 * RANGES record with translated addresses, on this process's own pidfd
 * and userfaultfd; prctl(PR_SET_VMA)'s name and mbind's nodemask from
 * the record (a trace without one: node 0).  A process_madvise of another
 * recorded process (the record's target, format 6) is issued on that
 * process's replayer through a pidfd of it, its addresses translated as
 * that replayer placed them, or in that process's model (simulator); one
 * of another process a trace does not name is not replayed; one whose
 * pidfd failed (EBADF, ESRCH) gets one that fails so.  The process-wide prctl options are
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
 * (its pidfd's); a trace without the pidfd's process (before format 6)
 * does not say whose: the call is not issued (skipped, and said). */
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

/* The slot of the other replayed process a process_madvise's pidfd named
 * (format 6's target): the last process of that pid to start before the
 * call; -1 for the caller itself, none known or one not in the trace. */
static int target_slot(const struct rp_engine *e, const struct vmt_event *rec, const struct vmt_ranges *r)
{
	if (!r || r->target <= 0 || r->target == rec->pid)
		return -1;
	uint32_t at = e->t->step_of_event[rec - e->t->events];
	int slot = -1;
	for (size_t s = 0; s < e->t->nprocs; s++)
		if (e->t->procs[s].pid == r->target && e->t->procs[s].first_step < at &&
		    (slot < 0 || e->t->procs[s].first_step > e->t->procs[slot].first_step))
			slot = (int)s;
	return slot;
}

/* Recorded address a of process `ts` as its replayer has it (kernel): the
 * offset of the last call of that process that mapped or moved memory over
 * a (the results the replayers share); a range it did not map itself
 * came from its parent at fork and lies where the caller's map says. */
static uint64_t target_xlate(const struct rp_engine *e, const struct rp_pstate *p, int ts,
                             const struct vmt_event *rec, uint64_t a)
{
	int32_t pid = e->t->procs[ts].pid;
	for (size_t j = (size_t)(rec - e->t->events); j-- > 0;) {
		const struct vmt_event *ev = &e->t->events[j];
		int fx = vmt_sys_effect(ev->sys);
		if (ev->pid != pid || ev->err || (fx != VMT_FX_MAP && fx != VMT_FX_REMAP))
			continue;
		uint64_t lo = (uint64_t)ev->result & ~(e->page - 1);
		uint64_t len = rp_page_up(e, fx == VMT_FX_REMAP ? ev->args[2] : ev->args[1]);
		const struct rp_evres *res = &e->sh->ev[j];
		if (a >= lo && a - lo < len && res->done && !res->skipped)
			return a + (uint64_t)res->offset;
	}
	return rp_xlate(e, p, a);
}

/* A pidfd of the replayer of slot ts (kernel), -1 when it has ended or
 * none can be had (the call then fails as on an ended process). */
static int target_pidfd(const struct rp_engine *e, int ts)
{
	const struct rp_slot_state *st = &e->sh->slots[ts];
	if (st->real_pid <= 0 || atomic_load(&st->finished))
		return dead_pidfd();
	int fd = (int)syscall(SYS_pidfd_open, st->real_pid, 0);
	return fd >= 0 ? fd : dead_pidfd();
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
	int ts = vmt_sys_ranges(rec->sys) == VMT_RANGES_IOVEC ? target_slot(e, rec, r) : -1, tfd = -1;
	if (ts >= 0) {
		/* another replayed process's memory: the call is issued on
		 * its replayer (kernel) or its model (simulator); the caller's
		 * VMAs do not change */
		*fx = (struct rp_effect){ .kind = RP_FX_NONE, .ranges = r };
	} else if (vmt_sys_ranges(rec->sys) == VMT_RANGES_IOVEC && r && !rec->err && on_other_process(e, p, r)) {
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
			if (ts >= 0)
				ev->args[0] = (uint64_t)(tfd = target_pidfd(e, ts));
			else
				ev->args[0] = (uint64_t)(rec->err == EBADF ? -1 : rec->err == ESRCH ? dead_pidfd() : own_pidfd());
			if (!r) {
				ev->args[1] = UNREADABLE;
				break;
			}
			if (r->n > sizeof iov / sizeof iov[0] && !(v = malloc(r->n * sizeof(*v)))) {
				*out = (struct vr_result){ .ret = -1, .err = ENOMEM, .outcome = VR_FAILED };
				if (tfd >= 0 && tfd != dead_pidfd())
					close(tfd);
				return;
			}
			for (uint32_t i = 0; i < r->n; i++)
				v[i] = (struct vmt_range){ ts >= 0 ? target_xlate(e, p, ts, rec, r->ranges[i].start)
				                                   : rp_xlate(e, p, r->ranges[i].start),
				                           r->ranges[i].len };
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
	/* the simulator: the pidfd's process's model, which it names gone
	 * (ESRCH) once that process has no space */
	struct rp_space *space = ts >= 0 && !e->be->replayer_processes ? e->ps[ts].space : p->space;
	if (!space) {
		*out = (struct vr_result){ .ret = -1, .err = ESRCH, .outcome = VR_FAILED, .rule = "process_madvise: the pidfd's process has no address space" };
	} else {
		e->be->apply(space, ev, NULL, fx, out);
		if (space != p->space)
			out->vma_count = -1;   /* the target's count, not the caller's */
	}
	if (tfd >= 0 && tfd != dead_pidfd())
		close(tfd);
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

uint32_t rp_last_remote_step(const struct rp_engine *e, uint32_t slot)
{
	const struct rp_trace *t = e->t;
	int32_t pid = t->procs[slot].pid;
	size_t k;
	for (k = 0; k < t->nranges; k++)   /* most traces: no record names it */
		if (t->ranges[k].kind == VMT_RANGES_IOVEC && t->ranges[k].target == pid && t->ranges[k].pid != pid)
			break;
	if (k == t->nranges)
		return 0;
	uint32_t last = 0;
	for (size_t j = 0; j < t->nevents; j++) {
		const struct vmt_event *ev = &t->events[j];
		const struct vmt_ranges *r;
		if (vmt_sys_ranges(ev->sys) != VMT_RANGES_IOVEC || !(r = rp_trace_ranges(t, ev)) || r->target != pid)
			continue;
		uint32_t st = t->step_of_event[j];
		if (st + 1 > last && target_slot(e, ev, r) == (int)slot)
			last = st + 1;
	}
	return last;
}
