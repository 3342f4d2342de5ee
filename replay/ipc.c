/* ipc.c - shmat, shmdt, mlockall and munlockall replayed.
 *
 * shmat: the recorded segment's size comes from the FILE record its event
 * names (docs/trace-format.md).  On this kernel each recorded shmid gets one
 * stand-in segment per replayer process (IPC_PRIVATE, same size), marked
 * IPC_RMID right after its first attach so it goes with the replay even
 * when the replay is killed; it is attached at the translated recorded
 * address, never with SHM_REMAP over memory the replay does not own.
 * shmdt: the kernel detaches the whole attachment at the address; its
 * recorded length is found once from the trace (index_detaches). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include "replay/ipc.h"
#include "lib/compat.h"

struct detach { size_t ev; uint64_t len; };
struct standin_seg { uint64_t rec; int id; };

/* What these calls keep for one engine (e->ipc).  A replayer forked for a
 * recorded process has its own copy, as it has of all its memory: its
 * stand-in segments are those it made or inherited. */
struct rp_ipc {
	/* --threads: the tables below; never held across a call (the engine
	 * releases its own lock during calls) */
	pthread_mutex_t lock;
	/* the recorded length of every successful shmdt, by event; from the
	 * trace, at the first shmdt */
	struct detach *dts;
	size_t ndts;
	int indexed;
	/* kernel: the stand-in of each recorded shmid */
	struct standin_seg *segs;
	size_t nsegs, capsegs;
};

struct rp_ipc *rp_ipc_new(void)
{
	struct rp_ipc *x = calloc(1, sizeof(*x));
	if (x)
		pthread_mutex_init(&x->lock, NULL);
	return x;
}

void rp_ipc_free(struct rp_ipc *x)
{
	if (!x)
		return;
	pthread_mutex_destroy(&x->lock);
	free(x->dts);
	free(x->segs);
	free(x);
}

static uint64_t xlate(const struct rp_pstate *p, uint64_t a)
{
	const struct am_range *r = am_find(&p->am, a);
	return a + (uint64_t)(r ? r->delta : rp_unit_delta(p->unit, a));
}

/* Every byte of recorded [rs, re) is the replay's own mapping, all of it
 * moved by `delta` (so replayed [rs, re) + delta is ours). */
static int all_owned(const struct rp_pstate *p, uint64_t rs, uint64_t re, int64_t delta)
{
	uint64_t cur = rs;
	struct am_piece pc;
	while (am_next_piece(&p->am, &cur, re, &pc))
		if (!pc.mapped || pc.delta != delta)
			return 0;
	return 1;
}

static uint64_t seg_len(const struct rp_engine *e, uint32_t slot, const struct vmt_event *ev)
{
	const struct vmt_file *f = ev->file_id ? rp_file_of(e->t, slot, ev->file_id) : NULL;
	return f && f->size ? rp_page_up(e, f->size) : 0;
}

/* ---- recorded length of every successful shmdt ------------------------ */

struct live { uint32_t slot; uint64_t addr, len; };

static int by_event(const void *a, const void *b)
{
	const struct detach *x = a, *y = b;
	return (x->ev > y->ev) - (x->ev < y->ev);
}

/* *p grown to twice its *cap plus 8 elements of size: 0, or -1 with *p
 * and *cap as they were (out of memory). */
static int grow(void **p, size_t *cap, size_t size)
{
	size_t c = *cap * 2 + 8;
	void *n = realloc(*p, c * size);
	if (!n)
		return -1;
	*p = n;
	*cap = c;
	return 0;
}

/* One pass in recorded order: attachments live per process, inherited by
 * a fork child, dropped at exec; each shmdt takes its attachment's length. */
static void index_detaches(const struct rp_engine *e, struct rp_ipc *x)
{
	const struct rp_trace *t = e->t;
	void *lvp = NULL, *dtsp = NULL;   /* the arrays below, for grow */
	struct live *lv = NULL;
	size_t nl = 0, cl = 0, cd = 0;
	struct detach *dts = NULL;
	size_t ndts = 0;
	for (size_t s = 0; s < t->nsteps; s++) {
		rp_trace_tick(t, s);
		const struct rp_step *st = &t->steps[s];
		if (st->kind != RP_EVENT)
			continue;
		const struct vmt_event *ev = &t->events[st->idx];
		if (ev->err)
			continue;
		size_t n0 = nl;
		if (ev->sys == VMT_SYS_SHMAT) {
			if (nl == cl && grow(&lvp, &cl, sizeof *lv))
				break;
			lv = lvp;
			lv[nl++] = (struct live){ st->slot, (uint64_t)ev->result, seg_len(e, st->slot, ev) };
		} else if (ev->sys == VMT_SYS_SHMDT) {
			for (size_t k = 0; k < nl; k++)
				if (lv[k].slot == st->slot && lv[k].addr == ev->args[0]) {
					if (ndts == cd && grow(&dtsp, &cd, sizeof *dts))
						goto out;
					dts = dtsp;
					dts[ndts++] = (struct detach){ st->idx, lv[k].len };
					lv[k] = lv[--nl];
					break;
				}
		} else if (ev->sys == VMT_SYS_EXECVE || ev->sys == VMT_SYS_EXECVEAT) {
			for (size_t k = 0; k < nl; )
				if (lv[k].slot == st->slot)
					lv[k] = lv[--nl];
				else
					k++;
		} else if (rp_is_fork(ev)) {
			for (size_t c = 0; c < t->nprocs; c++) {
				if (t->procs[c].pid != (int32_t)ev->result || t->procs[c].parent_slot != (int32_t)st->slot)
					continue;
				for (size_t k = 0; k < n0; k++) {
					if (lv[k].slot != st->slot)
						continue;
					if (nl == cl && grow(&lvp, &cl, sizeof *lv))
						goto out;
					lv = lvp;
					lv[nl++] = (struct live){ (uint32_t)c, lv[k].addr, lv[k].len };
				}
			}
		}
	}
out:
	free(lv);
	if (dts)
		qsort(dts, ndts, sizeof *dts, by_event);
	x->dts = dts;
	x->ndts = ndts;
	x->indexed = 1;
}

/* The recorded length event i detached; 0 when the trace does not say. */
static uint64_t detach_len(const struct rp_engine *e, size_t i)
{
	struct rp_ipc *x = e->ipc;
	pthread_mutex_lock(&x->lock);
	if (!x->indexed)
		index_detaches(e, x);
	const struct detach *dts = x->dts;
	size_t ndts = x->ndts, lo = 0, hi = ndts;
	uint64_t len = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (dts[mid].ev < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ndts && dts[lo].ev == i)
		len = dts[lo].len;
	pthread_mutex_unlock(&x->lock);
	return len;
}

/* ---- kernel: stand-in segments ----------------------------------------- */

/* The stand-in of recorded shmid `rec`, still ours (marked for removal by
 * us, same size), or a new one (*fresh = 1); -errno if none can be made.
 * Under x->lock. */
static int standin_seg(struct rp_ipc *x, uint64_t rec, uint64_t size, int *fresh)
{
	struct shmid_ds ds;
	size_t k;
	*fresh = 0;
	for (k = 0; k < x->nsegs && x->segs[k].rec != rec; k++)
		;
	if (k < x->nsegs && shmctl(x->segs[k].id, IPC_STAT, &ds) == 0 &&
	    (ds.shm_perm.mode & SHM_DEST) && ds.shm_segsz == size)
		return x->segs[k].id;
	int id = shmget(IPC_PRIVATE, size, IPC_CREAT | 0700);
	if (id < 0)
		return -errno;
	if (k == x->nsegs) {
		if (x->nsegs == x->capsegs) {
			struct standin_seg *n = realloc(x->segs, (x->capsegs * 2 + 8) * sizeof *n);
			if (!n) {
				shmctl(id, IPC_RMID, NULL);
				return -ENOMEM;
			}
			x->segs = n;
			x->capsegs = x->capsegs * 2 + 8;
		}
		x->nsegs++;
	}
	x->segs[k] = (struct standin_seg){ rec, id };
	*fresh = 1;
	return id;
}

/* ---- the calls ------------------------------------------------------------ */

static void as_recorded(const struct vmt_event *rec, struct vr_result *out, int *skipped)
{
	*skipped = 1;
	out->ret = rec->result;
	out->err = rec->err;
}

static void replay_shmat(struct rp_engine *e, uint32_t slot, struct rp_pstate *p, size_t i,
                         struct vmt_event *ev, struct vr_result *out, struct rp_effect *fx,
                         int *skipped, int64_t *want)
{
	const struct vmt_event *rec = &e->t->events[i];
	const struct vmt_file *f = rec->file_id ? rp_file_of(e->t, slot, rec->file_id) : NULL;
	uint64_t len = seg_len(e, slot, rec), flags = rec->args[2], target = 0;
	if (!len) {   /* the recorder names no segment it could not IPC_STAT */
		as_recorded(rec, out, skipped);
		if (!rec->err)
			rp_say(e, "event %zu (shmat): the trace does not give the segment's size: skipped", i);
		return;
	}
	if (!rec->err && (e->o->placement == RP_PLACE_RECORDED || rec->args[1])) {
		target = xlate(p, (uint64_t)rec->result);
		*want = (int64_t)target;
		/* without SHM_REMAP the kernel refuses a busy range (EINVAL) */
		if ((flags & SHM_REMAP) && !e->be->recorded_addresses &&
		    !all_owned(p, (uint64_t)rec->result, (uint64_t)rec->result + len,
		               (int64_t)(target - (uint64_t)rec->result)))
			flags &= ~(uint64_t)SHM_REMAP;
	} else if (rec->args[1]) {
		target = xlate(p, rec->args[1]);
	}
	int fresh = 0;
	int64_t id = (int64_t)rec->args[0];
	if (e->be->real_objects) {
		pthread_mutex_lock(&e->ipc->lock);
		id = standin_seg(e->ipc, rec->args[0], f->size, &fresh);
		pthread_mutex_unlock(&e->ipc->lock);
		if (id < 0) {
			*out = (struct vr_result){ .ret = -1, .err = (int)-id, .outcome = VR_FAILED };
			rp_say(e, "event %zu (shmat): cannot make a stand-in segment of %llu bytes: %s", i,
			    (unsigned long long)f->size, strerror((int)-id));
			return;
		}
	}
	ev->args[0] = (uint64_t)id;
	ev->args[1] = target;
	ev->args[2] = flags;
	/* placed by the kernel (lo 0): hi carries the length */
	*fx = (struct rp_effect){ .lo = target, .hi = target + len, .kind = RP_FX_CREATE,
	                          .fresh = !(flags & SHM_REMAP) };
	e->be->apply(p->space, ev, f, fx, out);
	if (fresh)   /* from now on it lives only as long as its attachments */
		shmctl((int)id, IPC_RMID, NULL);
	if (out->err)
		return;
	if (!rec->err) {
		am_set(&p->am, (uint64_t)rec->result, (uint64_t)rec->result + len, out->ret - rec->result);
	} else {
		/* attached here but failed when recorded: take it back */
		struct vmt_event un = { .sys = VMT_SYS_SHMDT, .args = { (uint64_t)out->ret, len } };
		struct rp_effect ufx = { .lo = (uint64_t)out->ret, .hi = (uint64_t)out->ret + len, .kind = RP_FX_REMOVE };
		struct vr_result ur;
		e->be->apply(p->space, &un, NULL, &ufx, &ur);
		fx->vma_delta += ufx.vma_delta;
	}
}

static void replay_shmdt(struct rp_engine *e, struct rp_pstate *p, size_t i, struct vmt_event *ev,
                         struct vr_result *out, struct rp_effect *fx, int *skipped)
{
	const struct vmt_event *rec = &e->t->events[i];
	uint64_t len = rec->err ? 0 : detach_len(e, i);
	if (!rec->err && !len) {
		as_recorded(rec, out, skipped);
		rp_say(e, "event %zu (shmdt): the trace does not give the length of the attachment at %#llx: skipped", i,
		    (unsigned long long)rec->args[0]);
		return;
	}
	uint64_t t = xlate(p, rec->args[0]);
	ev->args[0] = t;
	ev->args[1] = len;   /* unused by the kernel; the simulator's effect range */
	if (len)
		*fx = (struct rp_effect){ .lo = t, .hi = t + len, .kind = RP_FX_REMOVE };
	e->be->apply(p->space, ev, NULL, fx, out);
	if (!out->err && len)
		am_remove(&p->am, rec->args[0], rec->args[0] + len);
}

/* No range: the outcome is `unchanged`, the count is taken again.  The
 * replayer's own memory is locked too, and the placeholders of the
 * recorder's VMAs, which are never populated (image.c place_holder). */
static void replay_lockall(struct rp_engine *e, struct rp_pstate *p, size_t i, struct vmt_event *ev,
                           struct vr_result *out, struct rp_effect *fx)
{
	const struct vmt_event *rec = &e->t->events[i];
	e->be->apply(p->space, ev, NULL, fx, out);
	if (out->err && !rec->err && (out->err == ENOMEM || out->err == EPERM || out->err == EAGAIN))
		rp_say(e, "event %zu (mlockall): RLIMIT_MEMLOCK here (ulimit -l) is below what the recording locked", i);
	if (!out->err)
		p->locked_future = ev->sys == VMT_SYS_MLOCKALL && (ev->args[0] & MCL_FUTURE);
	if (e->be->counts_each_call) {   /* which counts the recorder's VMAs too */
		if (out->vma_count >= 0)
			p->count = out->vma_count - p->held;
	} else if (e->o->outcomes) {
		p->count = rp_full_count(e->be, p);
	}
}

int rp_ipc_event(struct rp_engine *e, uint32_t slot, struct rp_pstate *p, size_t i,
                 struct vmt_event *ev, struct vr_result *out, struct rp_effect *fx,
                 int *skipped, int64_t *want)
{
	switch (vmt_sys_effect(ev->sys)) {
	case VMT_FX_ATTACH:
		replay_shmat(e, slot, p, i, ev, out, fx, skipped, want);
		return 1;
	case VMT_FX_DETACH:
		replay_shmdt(e, p, i, ev, out, fx, skipped);
		return 1;
	case VMT_FX_PROCESS:
		if (ev->sys != VMT_SYS_MLOCKALL && ev->sys != VMT_SYS_MUNLOCKALL)
			return 0;   /* prctl's options: apply_mem.c */
		replay_lockall(e, p, i, ev, out, fx);
		return 1;
	}
	return 0;
}
