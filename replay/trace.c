/* Loading copies every record out of the reader (its pointers are only good
 * until the next record) into typed arrays; strings and VMA tables are
 * duplicated. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "replay/trace.h"
#include "vmt.h"

#define GROW(arr, n, cap) do { \
	if ((n) == (cap)) { \
		size_t c_ = (cap) ? (cap) * 2 : 256; \
		void *p_ = realloc((arr), c_ * sizeof(*(arr))); \
		if (!p_) goto nomem; \
		(arr) = p_; (cap) = c_; \
	} \
} while (0)

/* The arrays that grow with every event (steps, events, step_of_event)
 * are spilled (spill.h): each grows by doubling in its own mapping (mremap,
 * no copy: a malloc'd array that doubles is copied into fresh pages each
 * time, and every fresh page costs a fault, on the guests `make bench`
 * runs on ~15 us: copies and faults were 60% of loading a 340,000-event
 * trace, docs/replay-cost.md), and loading keeps only the last window of
 * them resident. */
#define BIG_GROW(arr, n, sp) do { \
	if (rp_spill_grow(&(sp), ((n) + 1) * sizeof(*(arr)))) goto nomem; \
	(arr) = (sp).p; \
} while (0)

static char *dupstr(const char *s) { return strdup(s ? s : ""); }

struct caps { size_t maps, cks, res, images, files, procs, layouts, ranges; };

/* A RANGES record kept: its ranges and name copied. */
static int copy_ranges(struct vmt_ranges *to, const struct vmt_ranges *from)
{
	*to = *from;
	struct vmt_range *r = malloc((from->n ? from->n : 1) * sizeof(*r));
	if (!r)
		return -1;
	if (from->n)
		memcpy(r, from->ranges, from->n * sizeof(*r));
	to->ranges = r;
	to->name = from->name ? strdup(from->name) : NULL;
	return from->name && !to->name ? -1 : 0;
}

static int cmp_ranges(const void *a, const void *b)
{
	const struct vmt_ranges *x = a, *y = b;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

const struct vmt_ranges *rp_trace_ranges(const struct rp_trace *t, const struct vmt_event *ev)
{
	struct vmt_ranges key = { .seq = ev->seq, .pid = ev->pid };
	const struct vmt_ranges *r = t->nranges ? bsearch(&key, t->ranges, t->nranges, sizeof(key), cmp_ranges)
	                                        : NULL;
	return r && r->kind == (uint32_t)vmt_sys_ranges(ev->sys) ? r : NULL;
}

/* A deep copy of a MAP's or LAYOUT's VMA table into *m. */
static int copy_vmas(struct vmt_map *m, const struct vmt_map *from)
{
	*m = *from;
	struct vmt_vma *v = calloc(m->nvma ? m->nvma : 1, sizeof(*v));
	if (!v) {
		m->vmas = NULL;
		m->nvma = 0;
		return -1;
	}
	m->vmas = v;
	for (uint32_t i = 0; i < m->nvma; i++) {
		v[i] = from->vmas[i];
		v[i].name = NULL;
	}
	for (uint32_t i = 0; i < m->nvma; i++)
		if (!(v[i].name = dupstr(from->vmas[i].name)))
			return -1;
	return 0;
}

static void free_vmas(struct vmt_map *m)
{
	for (uint32_t j = 0; j < m->nvma; j++)
		free((char *)m->vmas[j].name);
	free((void *)m->vmas);
}

static int slot_of(struct rp_trace *t, struct caps *c, int32_t pid, uint32_t step)
{
	for (size_t i = t->nprocs; i-- > 0; )
		if (t->procs[i].pid == pid)
			return (int)i;
	GROW(t->procs, t->nprocs, c->procs);
	t->procs[t->nprocs] = (struct rp_proc_info){ .pid = pid, .parent_slot = -1,
	                                            .first_step = step };
	return (int)t->nprocs++;
nomem:
	return -1;
}

static int cmp_file(const void *a, const void *b)
{
	const struct vmt_file *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int32_t rec_pid(const struct vmt_record *r)
{
	switch (r->type) {
	case VMT_REC_PROCESS: return r->u.process.pid;
	case VMT_REC_MAP: return r->u.map.pid;
	case VMT_REC_CHECKPOINT: return r->u.checkpoint.pid;
	case VMT_REC_RESIDENCY: return r->u.residency.pid;
	case VMT_REC_EVENT: return r->u.event.pid;
	}
	return 0;
}

/* A vfork returns when its child has exec'ed or exited, and the recorded
 * call comes after the child's first records; a replay starts the child
 * at that call, so it goes where the child began, before them (else the
 * turns would wait for the child's steps forever). */
static void vfork_first(struct rp_trace *t)
{
	for (size_t c = 0; c < t->nprocs; c++) {
		if (t->procs[c].parent_slot < 0)
			continue;
		size_t first = t->procs[c].first_step, fork = SIZE_MAX;
		for (size_t s = first; s < t->nsteps && fork == SIZE_MAX; s++) {
			rp_trace_tick(t, s);
			const struct rp_step *st = &t->steps[s];
			const struct vmt_event *e = st->kind == RP_EVENT ? &t->events[st->idx] : NULL;
			if (e && st->slot == (uint32_t)t->procs[c].parent_slot && !e->err && e->result == t->procs[c].pid &&
			    (e->sys == VMT_SYS_FORK || e->sys == VMT_SYS_VFORK ||
			     ((e->sys == VMT_SYS_CLONE || e->sys == VMT_SYS_CLONE3) && !(e->flags & VMT_EV_THREAD))))
				fork = s;
		}
		if (fork == SIZE_MAX)
			continue;   /* the fork comes before the child: as it should */
		struct rp_step f = t->steps[fork];
		memmove(&t->steps[first + 1], &t->steps[first], (fork - first) * sizeof(*t->steps));
		t->steps[first] = f;
		for (size_t s = first; s <= fork; s++)
			if (t->steps[s].kind == RP_EVENT)
				t->step_of_event[t->steps[s].idx] = (uint32_t)s;
		for (size_t p = 0; p < t->nprocs; p++)
			if (t->procs[p].first_step >= first && t->procs[p].first_step < fork)
				t->procs[p].first_step++;
			else if (t->procs[p].first_step == fork)
				t->procs[p].first_step = (uint32_t)first;
	}
}

int rp_trace_load(struct rp_trace *t, const char *path, char *why, size_t whylen)
{
	memset(t, 0, sizeof(*t));
	rp_spill_init(&t->steps_sp, 0);
	rp_spill_init(&t->events_sp, 0);
	rp_spill_init(&t->soe_sp, 0);
	t->path = path;
	int err = 0;
	struct vmt_reader_prefs prefs = { .order = VMT_ORDER_SEQ };
	struct vmt_reader *r = vmt_reader_open(path, &prefs, &err);
	if (!r) {
		snprintf(why, whylen, "%s", vmt_reader_open_error());
		return -1;
	}
	const struct vmt_header *h = vmt_reader_header(r);
	if (h) {
		t->header = *h;
		t->header.cmdline = dupstr(h->cmdline);
	}
	struct caps c = { 0 };
	struct vmt_record rec;
	int got = 0;
	const char *problem = NULL;
	struct vmt_check *ck = vmt_check_new(h);
	if (!ck)
		goto nomem;
	if (h && !vmt_check_version(h))
		problem = "header of another format version";
	while (!problem && (got = vmt_reader_next(r, &rec)) == 1) {
		if ((problem = vmt_check_record(ck, &rec)))
			break;
		if (rec.type == VMT_REC_FILE) {
			GROW(t->files, t->nfiles, c.files);
			t->files[t->nfiles] = rec.u.file;
			t->files[t->nfiles++].path = dupstr(rec.u.file.path);
			continue;
		}
		if (rec.type == VMT_REC_RANGES) {
			GROW(t->ranges, t->nranges, c.ranges);
			if (copy_ranges(&t->ranges[t->nranges++], &rec.u.ranges) < 0)
				goto nomem;
			continue;
		}
		if (rec.type == VMT_REC_LAYOUT) {
			GROW(t->layouts, t->nlayouts, c.layouts);
			if (copy_vmas(&t->layouts[t->nlayouts++], &rec.u.layout) < 0)
				goto nomem;
			continue;
		}
		if (rec.type < VMT_REC_PROCESS || rec.type > VMT_REC_EVENT ||
		    rec.type == VMT_REC_MODULE || rec.type == VMT_REC_STACK)
			continue;
		int slot = slot_of(t, &c, rec_pid(&rec), (uint32_t)t->nsteps);
		if (slot < 0)
			goto nomem;
		struct rp_step st = { .slot = (uint32_t)slot };
		switch (rec.type) {
		case VMT_REC_PROCESS: {
			GROW(t->images, t->nimages, c.images);
			struct vmt_process *p = &t->images[t->nimages];
			*p = rec.u.process;
			p->exe = dupstr(p->exe);
			p->cmdline = dupstr(p->cmdline);
			t->procs[slot].ppid = p->ppid;
			st.kind = RP_PROCESS;
			st.idx = (uint32_t)t->nimages++;
			break;
		}
		case VMT_REC_MAP: {
			GROW(t->maps, t->nmaps, c.maps);
			if (copy_vmas(&t->maps[t->nmaps++], &rec.u.map) < 0)
				goto nomem;
			st.kind = RP_MAP;
			st.idx = (uint32_t)(t->nmaps - 1);
			break;
		}
		case VMT_REC_CHECKPOINT:
			GROW(t->cks, t->ncks, c.cks);
			t->cks[t->ncks] = rec.u.checkpoint;
			st.kind = RP_CHECKPOINT;
			st.idx = (uint32_t)t->ncks++;
			break;
		case VMT_REC_RESIDENCY: {
			GROW(t->res, t->nres, c.res);
			struct vmt_residency *s = &t->res[t->nres];
			*s = rec.u.residency;
			size_t nb = (size_t)((s->npages + 7) / 8);
			uint8_t *bits = malloc(nb ? nb : 1);
			if (!bits)
				goto nomem;
			if (nb)
				memcpy(bits, rec.u.residency.bits, nb);
			s->bits = bits;
			st.kind = RP_RESIDENCY;
			st.idx = (uint32_t)t->nres++;
			break;
		}
		case VMT_REC_EVENT:
			t->procs[slot].nevents++;
			BIG_GROW(t->events, t->nevents, t->events_sp);
			t->events[t->nevents] = rec.u.event;
			st.kind = RP_EVENT;
			st.idx = (uint32_t)t->nevents++;
			break;
		}
		BIG_GROW(t->steps, t->nsteps, t->steps_sp);
		t->steps[t->nsteps++] = st;
		if (t->nsteps % RP_SPILL_WINDOW == 0) {   /* the next window, in one call */
			rp_trace_drop(t);
			rp_spill_populate(&t->steps_sp, t->nsteps * sizeof(*t->steps),
			                  RP_SPILL_WINDOW * sizeof(*t->steps), 1);
			rp_spill_populate(&t->events_sp, t->nevents * sizeof(*t->events),
			                  RP_SPILL_WINDOW * sizeof(*t->events), 1);
		}
	}
	if (!problem && got < 0) {
		t->incomplete = 1;
		snprintf(t->note, sizeof(t->note), "%s", vmt_reader_error(r));
	} else if (!problem) {
		problem = vmt_check_end(ck);
	}
	if (problem) {
		if (got == 1)
			snprintf(why, whylen, "%s: bad: %s (record %llu)", path, problem,
			         (unsigned long long)vmt_check_records(ck));
		else
			snprintf(why, whylen, "%s: bad: %s", path, problem);
		vmt_check_free(ck);
		vmt_reader_close(r);
		rp_trace_free(t);
		return -1;
	}
	/* a call no order of the recorded times makes possible: replayed as it
	 * is, said once (vmtrace check names it) */
	struct vmt_order_stats os;
	vmt_reader_order_stats(r, &os);
	memcpy(t->nears, os.nears, sizeof(t->nears));
	t->nnears = os.nnears;
	const char *order = vmt_check_order(ck, &os);
	if (order)
		fprintf(stderr, "vmreplay: %s: %s: it replays as recorded, and differs\n", path, order);
	vmt_check_free(ck);
	ck = NULL;
	vmt_reader_close(r);
	r = NULL;

	if (t->nfiles)
		qsort(t->files, t->nfiles, sizeof(*t->files), cmp_file);
	if (t->nranges)
		qsort(t->ranges, t->nranges, sizeof(*t->ranges), cmp_ranges);
	t->file_need = calloc(t->nfiles + 1, sizeof(*t->file_need));
	t->file_use = calloc(t->nfiles + 1, sizeof(*t->file_use));
	if (!t->file_need || !t->file_use || rp_spill_grow(&t->soe_sp, (t->nevents + 1) * sizeof(*t->step_of_event)))
		goto nomem;
	t->step_of_event = t->soe_sp.p;
	for (size_t i = 0; i < t->nfiles; i++)
		t->file_need[i] = t->files[i].size;
	rp_trace_window(t, 0);
	for (size_t s = 0; s < t->nsteps; s++) {
		rp_trace_tick(t, s);
		const struct rp_step *st = &t->steps[s];
		if (st->kind == RP_MAP) {
			const struct vmt_map *m = &t->maps[st->idx];
			for (uint32_t i = 0; i < m->nvma; i++) {
				const struct vmt_vma *v = &m->vmas[i];
				const struct vmt_file *f = rp_trace_file(t, m->pid, v->file_id);
				if (f && !(v->flags & VMT_VMA_RECORDER)) {   /* never rebuilt */
					size_t fi = rp_trace_file_index(t, f);
					uint64_t need = v->offset + (v->end - v->start);
					if (need > t->file_need[fi])
						t->file_need[fi] = need;
					t->file_use[fi] |= RP_FILE_MAPPED |
					        ((v->flags & VMT_VMA_SHARED) && (v->prot & VMT_PROT_WRITE)
					         ? RP_FILE_SHARED_WRITE : 0);
				}
			}
		}
		if (st->kind != RP_EVENT)
			continue;
		t->step_of_event[st->idx] = (uint32_t)s;
		const struct vmt_event *e = &t->events[st->idx];
		if (e->sys == VMT_SYS_MMAP && e->file_id) {
			const struct vmt_file *f = rp_trace_file(t, e->pid, e->file_id);
			if (f) {
				size_t fi = rp_trace_file_index(t, f);
				uint64_t need = e->args[5] + e->args[1];
				if (need > t->file_need[fi])
					t->file_need[fi] = need;
				int type = (int)(e->args[3] & MAP_TYPE);
				t->file_use[fi] |= RP_FILE_MAPPED |
				        ((type == MAP_SHARED || type == MAP_SHARED_VALIDATE) &&
				         (e->args[2] & PROT_WRITE) ? RP_FILE_SHARED_WRITE : 0);
			}
		}
		int forks = e->sys == VMT_SYS_FORK || e->sys == VMT_SYS_VFORK ||
		            ((e->sys == VMT_SYS_CLONE || e->sys == VMT_SYS_CLONE3) &&
		             !(e->flags & VMT_EV_THREAD));
		if (forks && e->err == 0 && e->result > 0)
			for (size_t p = 0; p < t->nprocs; p++)
				if (t->procs[p].pid == (int32_t)e->result && t->procs[p].parent_slot < 0)
					t->procs[p].parent_slot = (int32_t)st->slot;
	}
	vfork_first(t);
	for (size_t s = 0; s < t->nsteps; s++) {
		rp_trace_tick(t, s);
		t->procs[t->steps[s].slot].last_step = (uint32_t)s;
	}
	rp_spill_seal(&t->steps_sp);
	rp_spill_seal(&t->events_sp);
	rp_spill_seal(&t->soe_sp);
	rp_trace_drop(t);
	return 0;
nomem:
	vmt_check_free(ck);
	if (r)
		vmt_reader_close(r);
	snprintf(why, whylen, "%s: out of memory loading the trace", path);
	return -1;
}

void rp_trace_free(struct rp_trace *t)
{
	for (size_t i = 0; i < t->nmaps; i++)
		free_vmas(&t->maps[i]);
	for (size_t i = 0; i < t->nlayouts; i++)
		free_vmas(&t->layouts[i]);
	for (size_t i = 0; i < t->nres; i++)
		free((void *)t->res[i].bits);
	for (size_t i = 0; i < t->nimages; i++) {
		free((char *)t->images[i].exe);
		free((char *)t->images[i].cmdline);
	}
	for (size_t i = 0; i < t->nfiles; i++)
		free((char *)t->files[i].path);
	for (size_t i = 0; i < t->nranges; i++) {
		free((void *)t->ranges[i].ranges);
		free((char *)t->ranges[i].name);
	}
	free(t->ranges);
	free((char *)t->header.cmdline);
	rp_spill_free(&t->steps_sp);
	rp_spill_free(&t->events_sp);
	rp_spill_free(&t->soe_sp);
	free(t->maps); free(t->layouts); free(t->cks); free(t->res);
	free(t->images); free(t->files); free(t->file_need); free(t->file_use); free(t->procs);
	memset(t, 0, sizeof(*t));
	rp_spill_init(&t->steps_sp, 0);
	rp_spill_init(&t->events_sp, 0);
	rp_spill_init(&t->soe_sp, 0);
}

void rp_trace_drop(const struct rp_trace *t)
{
	rp_spill_drop(&t->steps_sp);
	rp_spill_drop(&t->events_sp);
	rp_spill_drop(&t->soe_sp);
}

size_t rp_trace_window(const struct rp_trace *t, size_t step)
{
	rp_trace_drop(t);
	size_t n = t->nsteps - step < RP_SPILL_WINDOW ? t->nsteps - step : RP_SPILL_WINDOW;
	rp_spill_populate(&t->steps_sp, step * sizeof(*t->steps), n * sizeof(*t->steps), 0);
	size_t ev = SIZE_MAX;   /* the window's first event */
	for (size_t s = step; s < step + n && ev == SIZE_MAX; s++)
		if (t->steps[s].kind == RP_EVENT)
			ev = t->steps[s].idx;
	if (ev == SIZE_MAX)
		return ev;
	rp_spill_populate(&t->events_sp, ev * sizeof(*t->events), n * sizeof(*t->events), 0);
	rp_spill_populate(&t->soe_sp, ev * sizeof(*t->step_of_event), n * sizeof(*t->step_of_event), 0);
	return ev;
}

const struct vmt_file *rp_trace_file(const struct rp_trace *t, int32_t pid, uint32_t id)
{
	if (!id || !t->nfiles)
		return NULL;
	struct vmt_file key = { .pid = pid, .id = id };
	return bsearch(&key, t->files, t->nfiles, sizeof(*t->files), cmp_file);
}

size_t rp_trace_file_index(const struct rp_trace *t, const struct vmt_file *f)
{
	return (size_t)(f - t->files);
}

const struct vmt_map *rp_trace_layout(const struct rp_trace *t, const struct vmt_checkpoint *ck)
{
	size_t lo = 0, hi = t->nlayouts;
	while (lo < hi) {           /* the first with seq >= ck's */
		size_t mid = lo + (hi - lo) / 2;
		if (t->layouts[mid].seq < ck->seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < t->nlayouts && t->layouts[lo].seq == ck->seq; lo++)
		if (t->layouts[lo].pid == ck->pid)
			return &t->layouts[lo];
	return NULL;
}

int rp_is_special_vma(const struct vmt_vma *v)
{
	static const char *const special[] = {
		"[vdso]", "[vvar]", "[vvar_vclock]", "[vsyscall]", "[uprobes]",
	};
	for (size_t i = 0; i < sizeof(special) / sizeof(*special); i++)
		if (v->name && strcmp(v->name, special[i]) == 0)
			return 1;
	return 0;
}
