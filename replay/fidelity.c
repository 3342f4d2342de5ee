/* fidelity.c - see fidelity.h.  The recorded layout at a checkpoint is in
 * the trace where the recorder wrote one (LAYOUT: at exit and on request,
 * format 4); else it is rebuilt from the image's map (or, for a fork
 * child, the parent's layout at the fork) and the process's successful
 * recorded calls, merging a changed VMA with a compatible neighbour the
 * way the kernel's basic rule does (same protection and sharing;
 * anonymous with anonymous of the same name, or the same file at
 * contiguous offsets).  When that rebuilt count is not the recorded one
 * either, the report says so: the trace lacks something, and with a
 * LAYOUT it names the first recorded VMA the calls do not give. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "replay/engine_int.h"
#include "replay/fidelity.h"

#define DIFFS_PER_CK 16

/* ---- the replayer's side ------------------------------------------------ */

/* The pieces of replayed VMA [s, e) inside the program's ranges (an
 * address map range each, in recorded addresses); none for the replayer's
 * own memory. */
static size_t keep(struct rp_snap_vma *out, size_t n, const struct addrmap *am, uint64_t s, uint64_t e,
                   uint32_t prot, uint32_t shared, uint64_t inode, uint32_t id)
{
	size_t first = n;
	uint64_t covered = 0;
	for (size_t i = 0; i < am->n && n < RP_SNAP_VMAS; i++) {
		uint64_t a = am->r[i].start + (uint64_t)am->r[i].delta, b = am->r[i].end + (uint64_t)am->r[i].delta;
		uint64_t lo = a > s ? a : s, hi = b < e ? b : e;
		if (lo >= hi)
			continue;
		covered += hi - lo;
		out[n++] = (struct rp_snap_vma){ .start = lo - (uint64_t)am->r[i].delta, .end = hi - (uint64_t)am->r[i].delta,
		                                 .rstart = s, .rend = e, .prot = prot, .shared = shared,
		                                 .inode = inode, .id = id };
	}
	for (size_t i = first; i < n; i++)
		out[i].beyond = covered < e - s;
	return n;
}

struct keeping {
	struct rp_snap_vma *out;
	size_t n;
	const struct addrmap *am;
};

static void keep_vma(void *arg, const struct rp_vma *v, uint32_t i)
{
	struct keeping *k = arg;
	k->n = keep(k->out, k->n, k->am, v->start, v->end, v->prot, v->shared, v->file, i);
}

void rp_fidelity_snap(struct rp_engine *e, struct rp_pstate *p, uint32_t ck)
{
	static struct rp_snap_vma scratch[RP_SNAP_VMAS];
	struct rp_shared *sh = e->sh;
	if (!p->space || atomic_load(&sh->nsnaps) >= RP_SNAP_MAX)
		return;
	struct keeping kept = { .out = scratch, .am = &p->am };
	e->be->vmas(p->space, keep_vma, &kept);
	size_t n = kept.n;
	if (n >= RP_SNAP_VMAS)
		return;   /* more VMAs than it keeps: no partial comparison */
	uint32_t k = atomic_fetch_add(&sh->nsnaps, 1);
	if (k >= RP_SNAP_MAX)
		return;
	uint32_t first = atomic_fetch_add(&sh->snap_used, (uint32_t)n);
	if (first > RP_SNAP_VMAS || n > RP_SNAP_VMAS - first)
		return;   /* the pool is full: part of a map would be wrong diffs */
	memcpy(sh->snap_vmas + first, scratch, n * sizeof(*scratch));
	sh->snaps[k].ck = ck;
	sh->snaps[k].first = first;
	sh->snaps[k].n = (uint32_t)n;
	atomic_store(&sh->snaps[k].ready, 1);
}

/* ---- the driver's side: the recorded layout --------------------------- */

struct mv {
	uint64_t start, end, off;
	uint32_t prot, shared, file_id;
	const char *name;
	int changed;            /* made or changed by a call: may merge */
};

struct model {
	struct mv *v;
	size_t n, cap;
	uint64_t brk;           /* page-aligned end of the heap, 0 unknown */
	uint64_t start_brk;
	int bad;                /* out of memory */
};

static int room(struct model *m, size_t more)
{
	if (m->n + more <= m->cap)
		return 0;
	size_t cap = (m->n + more) * 2 + 16;
	struct mv *nv = realloc(m->v, cap * sizeof(*nv));
	if (!nv) {
		m->bad = 1;
		return -1;
	}
	m->v = nv;
	m->cap = cap;
	return 0;
}

/* A VMA boundary at a (splitting the VMA across it). */
static void split_at(struct model *m, uint64_t a)
{
	for (size_t i = 0; i < m->n; i++) {
		struct mv *v = &m->v[i];
		if (v->start < a && a < v->end) {
			if (room(m, 1) < 0)
				return;
			v = &m->v[i];
			memmove(&m->v[i + 2], &m->v[i + 1], (m->n - i - 1) * sizeof(*v));
			m->v[i + 1] = *v;
			m->v[i + 1].start = a;
			if (v->file_id)
				m->v[i + 1].off = v->off + (a - v->start);
			v->end = a;
			m->n++;
			return;
		}
	}
}

static void remove_range(struct model *m, uint64_t lo, uint64_t hi)
{
	split_at(m, lo);
	split_at(m, hi);
	size_t j = 0;
	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].end <= lo || m->v[i].start >= hi)
			m->v[j++] = m->v[i];
	m->n = j;
}

static int mergeable(const struct mv *a, const struct mv *b)
{
	if (a->end != b->start || !(a->changed || b->changed) || a->prot != b->prot ||
	    a->shared != b->shared || a->file_id != b->file_id)
		return 0;
	if (a->file_id)
		return a->off + (a->end - a->start) == b->off;
	return !a->shared && strcmp(a->name, b->name) == 0;
}

static void merge_all(struct model *m)
{
	size_t j = 0;
	for (size_t i = 0; i < m->n; i++) {
		if (j && mergeable(&m->v[j - 1], &m->v[i])) {
			m->v[j - 1].end = m->v[i].end;
			m->v[j - 1].changed = 1;
			continue;
		}
		m->v[j++] = m->v[i];
	}
	m->n = j;
}

static void insert(struct model *m, const struct mv *nv)
{
	if (nv->end <= nv->start)
		return;
	remove_range(m, nv->start, nv->end);
	if (room(m, 1) < 0)
		return;
	size_t i = 0;
	while (i < m->n && m->v[i].start < nv->start)
		i++;
	memmove(&m->v[i + 1], &m->v[i], (m->n - i) * sizeof(*nv));
	m->v[i] = *nv;
	m->v[i].changed = 1;
	m->n++;
	merge_all(m);
}

static const struct mv *covering(const struct model *m, uint64_t a)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->v[i].start <= a && a < m->v[i].end)
			return &m->v[i];
	return NULL;
}

static void from_map(struct model *m, const struct vmt_map *map)
{
	m->n = 0;
	m->brk = m->start_brk = 0;
	for (uint32_t i = 0; i < map->nvma; i++) {
		const struct vmt_vma *v = &map->vmas[i];
		if ((v->flags & VMT_VMA_RECORDER) || rp_is_special_vma(v) || room(m, 1) < 0)
			continue;
		m->v[m->n++] = (struct mv){ .start = v->start, .end = v->end, .off = v->file_id ? v->offset : 0,
		                            .prot = v->prot & 7, .shared = (v->flags & VMT_VMA_SHARED) != 0,
		                            .file_id = v->file_id, .name = v->name ? v->name : "" };
		if (strcmp(v->name, "[heap]") == 0) {
			if (!m->start_brk)
				m->start_brk = v->start;
			m->brk = v->end;
		}
	}
}

/* The recorded VMAs of a LAYOUT, the program's only (as from_map). */
static void from_layout(struct model *m, const struct rp_engine *e, uint32_t slot, const struct vmt_map *lay)
{
	m->n = 0;
	for (uint32_t i = 0; i < lay->nvma; i++) {
		const struct vmt_vma *v = &lay->vmas[i];
		if ((v->flags & VMT_VMA_RECORDER) || rp_is_special_vma(v) || room(m, 1) < 0)
			continue;
		const struct vmt_file *f = v->file_id ? rp_file_of(e->t, slot, v->file_id) : NULL;
		m->v[m->n++] = (struct mv){ .start = v->start, .end = v->end, .prot = v->prot & 7,
		                            .shared = (v->flags & VMT_VMA_SHARED) != 0, .file_id = v->file_id,
		                            .name = f ? f->path : v->name ? v->name : "" };
	}
}

static uint32_t specials(const struct vmt_map *mp)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < mp->nvma; i++)
		n += !(mp->vmas[i].flags & VMT_VMA_RECORDER) && rp_is_special_vma(&mp->vmas[i]);
	return n;
}

static void apply_event(struct model *m, const struct rp_engine *e, uint32_t slot, const struct vmt_event *ev)
{
	uint64_t pg = e->page, a0 = ev->args[0], len = (ev->args[1] + pg - 1) & ~(pg - 1);
	if (ev->err)
		return;
	/* what the table says the call does; only a protection change
	 * (mprotect, pkey_mprotect) changes what the model keeps of a range */
	int prot_change = ev->sys == VMT_SYS_MPROTECT || ev->sys == VMT_SYS_PKEY_MPROTECT;
	switch (vmt_sys_effect(ev->sys)) {
	case VMT_FX_MAP: {
		int is_mmap = ev->sys == VMT_SYS_MMAP;   /* else a shadow stack: anonymous, read-only to stores */
		const struct vmt_file *f = is_mmap && ev->file_id ? rp_file_of(e->t, slot, ev->file_id) : NULL;
		struct mv v = { .start = (uint64_t)ev->result, .end = (uint64_t)ev->result + len,
		                .prot = is_mmap ? (uint32_t)ev->args[2] & 7 : VMT_PROT_READ,
		                .shared = is_mmap && (ev->args[3] & 3) != MAP_PRIVATE,
		                .file_id = is_mmap ? ev->file_id : 0, .off = is_mmap && ev->file_id ? ev->args[5] : 0,
		                .name = f ? f->path : "" };
		insert(m, &v);
		break;
	}
	case VMT_FX_UNMAP:
		remove_range(m, a0, a0 + len);
		break;
	case VMT_FX_CHANGE:
		if (!prot_change)
			break;
		split_at(m, a0);
		split_at(m, a0 + len);
		for (size_t i = 0; i < m->n; i++)
			if (m->v[i].start >= a0 && m->v[i].end <= a0 + len) {
				m->v[i].prot = (uint32_t)ev->args[2] & 7;
				m->v[i].changed = 1;
			}
		merge_all(m);
		break;
	case VMT_FX_REMAP: {
		uint64_t nlen = (ev->args[2] + pg - 1) & ~(pg - 1), to = (uint64_t)ev->result;
		const struct mv *src = covering(m, a0);
		if (!src)
			break;
		struct mv v = *src;
		v.off = v.file_id ? src->off + (a0 - src->start) : 0;
		if (to == a0 && nlen < len) {
			remove_range(m, a0 + nlen, a0 + len);
			break;
		}
		if (!(ev->args[3] & MREMAP_DONTUNMAP))
			remove_range(m, a0, a0 + len);
		v.start = to;
		v.end = to + nlen;
		insert(m, &v);
		break;
	}
	case VMT_FX_BRK: {
		uint64_t now = ((uint64_t)ev->result + pg - 1) & ~(pg - 1);
		if (!m->start_brk) {
			m->start_brk = m->brk = now;
			break;
		}
		if (now > m->brk) {
			struct mv v = { .start = m->brk, .end = now, .prot = VMT_PROT_READ | VMT_PROT_WRITE,
			                .name = "[heap]" };
			insert(m, &v);
		} else if (now < m->brk) {
			remove_range(m, now > m->start_brk ? now : m->start_brk, m->brk);
		}
		m->brk = now > m->start_brk ? now : m->start_brk;
		break;
	}
	default:
		break;   /* shmat/shmdt sizes are not recorded; madvise and mlock split rarely */
	}
}

/* The recorded layout of `slot` just before step `upto`; 0, or -1 when the
 * trace has no map to start from. */
static int build_model(const struct rp_engine *e, uint32_t slot, size_t upto, struct model *m, int depth)
{
	const struct rp_trace *t = e->t;
	size_t from = SIZE_MAX;
	for (size_t s = upto; s-- > 0;) {
		const struct rp_step *st = &t->steps[s];
		if (st->slot != slot)
			continue;
		if (st->kind == RP_MAP) {
			from = s;
			break;
		}
		if (st->kind == RP_PROCESS && t->images[st->idx].image > 0)
			return -1;   /* an exec image without a map */
	}
	if (from != SIZE_MAX) {
		from_map(m, &t->maps[t->steps[from].idx]);
	} else {
		/* a fork child: its parent's layout at the fork */
		int32_t parent = t->procs[slot].parent_slot;
		size_t fork_step = SIZE_MAX;
		if (parent < 0 || depth > 64)
			return -1;
		for (size_t s = t->procs[slot].first_step; s-- > 0;) {
			const struct rp_step *st = &t->steps[s];
			if (st->kind == RP_EVENT && st->slot == (uint32_t)parent && rp_is_fork(&t->events[st->idx]) &&
			    t->events[st->idx].result == t->procs[slot].pid) {
				fork_step = s;
				break;
			}
		}
		if (fork_step == SIZE_MAX || build_model(e, (uint32_t)parent, fork_step, m, depth + 1) < 0)
			return -1;
		from = t->procs[slot].first_step;
	}
	for (size_t s = from; s < upto && !m->bad; s++)
		if (t->steps[s].slot == slot && t->steps[s].kind == RP_EVENT)
			apply_event(m, e, slot, &t->events[t->steps[s].idx]);
	return m->bad ? -1 : 0;
}

/* ---- comparing ----------------------------------------------------------- */

static void perms(char *p, uint32_t prot, uint32_t shared)
{
	p[0] = prot & VMT_PROT_READ ? 'r' : '-';
	p[1] = prot & VMT_PROT_WRITE ? 'w' : '-';
	p[2] = prot & VMT_PROT_EXEC ? 'x' : '-';
	p[3] = shared ? 's' : 'p';
	p[4] = 0;
}

static void say_model(char *buf, size_t len, const struct mv *v)
{
	char pr[5];
	perms(pr, v->prot, v->shared);
	snprintf(buf, len, "%#llx-%#llx %s %s", (unsigned long long)v->start, (unsigned long long)v->end, pr,
	         v->name[0] ? v->name : "[anon]");
}

static void say_replay(char *buf, size_t len, const struct rp_snap_vma *v)
{
	char pr[5];
	perms(pr, v->prot, v->shared);
	if (v->rstart == v->start && v->rend == v->end)
		snprintf(buf, len, "%#llx-%#llx %s %s", (unsigned long long)v->start, (unsigned long long)v->end, pr,
		         v->inode ? "file" : "[anon]");
	else
		snprintf(buf, len, "%#llx-%#llx (here %#llx-%#llx) %s %s", (unsigned long long)v->start,
		         (unsigned long long)v->end, (unsigned long long)v->rstart, (unsigned long long)v->rend, pr,
		         v->inode ? "file" : "[anon]");
}

struct diffs {
	struct rp_fid_diff *d;
	size_t n, cap, here;
	struct rp_fid_diff proto;
};

static struct rp_fid_diff *add(struct diffs *ds, const char *kind)
{
	if (ds->here >= DIFFS_PER_CK)
		return NULL;
	if (ds->n == ds->cap) {
		size_t cap = ds->cap ? ds->cap * 2 : 16;
		struct rp_fid_diff *nd = realloc(ds->d, cap * sizeof(*nd));
		if (!nd)
			return NULL;
		ds->d = nd;
		ds->cap = cap;
	}
	struct rp_fid_diff *d = &ds->d[ds->n++];
	*d = ds->proto;
	d->kind = kind;
	ds->here++;
	return d;
}

/* Model VMA v against the replayed pieces r[j..k) that overlap it, of
 * nr pieces sorted by recorded start. */
static void compare_one(struct diffs *ds, const struct mv *v, const struct rp_snap_vma *r, size_t nr,
                        size_t j, size_t k, uint32_t *reported)
{
	struct rp_fid_diff *d;
	char a[200];
	if (j == k) {
		if ((d = add(ds, "missing"))) {
			say_model(d->recorded, sizeof(d->recorded), v);
			snprintf(d->replay, sizeof(d->replay), "not mapped");
		}
		return;
	}
	int one = 1;
	for (size_t x = j + 1; x < k; x++)
		one &= r[x].id == r[j].id;
	if (!one) {
		if ((d = add(ds, "split"))) {
			say_model(d->recorded, sizeof(d->recorded), v);
			size_t n = 0;
			uint32_t last = UINT32_MAX;
			for (size_t x = j; x < k && n < sizeof(d->replay); x++)
				if (r[x].id != last) {
					last = r[x].id;
					say_replay(a, sizeof(a), &r[x]);
					n += (size_t)snprintf(d->replay + n, sizeof(d->replay) - n, "%s%s",
					                      n ? ", " : "split: ", a);
				}
		}
		return;
	}
	/* one replayed VMA: does it hold v exactly, more, or less? */
	uint64_t lo = UINT64_MAX, hi = 0, inside = 0;
	int prev = 0, next = 0;
	for (size_t x = 0; x < nr; x++) {
		if (r[x].id != r[j].id)
			continue;
		if (r[x].end <= v->start)
			prev = 1;
		else if (r[x].start >= v->end)
			next = 1;
		else {
			uint64_t s = r[x].start > v->start ? r[x].start : v->start;
			uint64_t e = r[x].end < v->end ? r[x].end : v->end;
			inside += e - s;
			if (r[x].start < v->start)
				prev = 1;
			if (r[x].end > v->end)
				next = 1;
		}
		lo = r[x].start < lo ? r[x].start : lo;
		hi = r[x].end > hi ? r[x].end : hi;
	}
	int all = inside == v->end - v->start;
	if (all && !prev && !next && !r[j].beyond) {
		if (r[j].prot != v->prot && (d = add(ds, "differs"))) {
			say_model(d->recorded, sizeof(d->recorded), v);
			say_replay(a, sizeof(a), &r[j]);
			snprintf(d->replay, sizeof(d->replay), "%s (another protection)", a);
		}
		return;
	}
	if (all) {
		if (*reported == r[j].id)
			return;   /* the VMA it merged into is said once */
		*reported = r[j].id;
		if ((d = add(ds, "merged"))) {
			say_model(d->recorded, sizeof(d->recorded), v);
			say_replay(a, sizeof(a), &r[j]);
			snprintf(d->replay, sizeof(d->replay), "merged with %s: %s",
			         prev && next ? "both neighbours" : next ? "next" : prev ? "prev"
			         : "the replayer's own memory", a);
		}
		return;
	}
	/* the stack grows by faults, not calls: a recorded layout has it as
	 * deep as the program went, the replay as its map had it */
	if (strcmp(v->name, "[stack]") == 0 && hi == v->end && !next)
		return;
	if ((d = add(ds, "differs"))) {
		say_model(d->recorded, sizeof(d->recorded), v);
		say_replay(a, sizeof(a), &r[j]);
		snprintf(d->replay, sizeof(d->replay), "only part of it: %s", a);
	}
}

static void compare(struct diffs *ds, const struct model *m, const struct rp_snap_vma *r, size_t nr)
{
	size_t j = 0;
	uint32_t reported = UINT32_MAX;
	for (size_t i = 0; i < m->n; i++) {
		const struct mv *v = &m->v[i];
		while (j < nr && r[j].end <= v->start)
			j++;
		size_t k = j;
		while (k < nr && r[k].start < v->end)
			k++;
		compare_one(ds, v, r, nr, j, k, &reported);
	}
	/* replayed VMAs no recorded one overlaps */
	uint32_t said = UINT32_MAX;
	for (size_t x = 0, i = 0; x < nr; x++) {
		while (i < m->n && m->v[i].end <= r[x].start)
			i++;
		if ((i < m->n && m->v[i].start < r[x].end) || r[x].id == said)
			continue;
		said = r[x].id;
		struct rp_fid_diff *d = add(ds, "extra");
		if (d) {
			snprintf(d->recorded, sizeof(d->recorded), "not mapped");
			say_replay(d->replay, sizeof(d->replay), &r[x]);
		}
	}
}

/* Where the layout rebuilt from the trace (m) departs from the recorded
 * one (lay): the first difference, in the words of compare(), into buf. */
static void first_departure(char *buf, size_t len, const struct model *lay, const struct model *m)
{
	struct rp_snap_vma *as = malloc((m->n + 1) * sizeof(*as));
	struct diffs tmp = { 0 };
	buf[0] = 0;
	if (!as)
		return;
	for (size_t i = 0; i < m->n; i++)
		as[i] = (struct rp_snap_vma){ .start = m->v[i].start, .end = m->v[i].end, .rstart = m->v[i].start,
		                              .rend = m->v[i].end, .prot = m->v[i].prot, .shared = m->v[i].shared,
		                              .inode = m->v[i].file_id, .id = (uint32_t)i };
	compare(&tmp, lay, as, m->n);
	if (tmp.n)
		snprintf(buf, len, ": recorded %.60s; the calls give %.100s", tmp.d[0].recorded, tmp.d[0].replay);
	free(tmp.d);
	free(as);
}

static int cmp_snap(const void *a, const void *b)
{
	const struct rp_snap_vma *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

size_t rp_fidelity_diffs(const struct rp_engine *e, struct rp_fid_diff **out)
{
	const struct rp_trace *t = e->t;
	const struct rp_shared *sh = e->sh;
	struct diffs ds = { 0 };
	uint32_t nsnaps = atomic_load(&sh->nsnaps);
	*out = NULL;
	for (uint32_t k = 0; k < nsnaps && k < RP_SNAP_MAX; k++) {
		const struct rp_snap *sn = &sh->snaps[k];
		if (!atomic_load(&sn->ready) || sn->ck >= t->ncks)
			continue;
		size_t step = SIZE_MAX;
		for (size_t s = 0; s < t->nsteps; s++)
			if (t->steps[s].kind == RP_CHECKPOINT && t->steps[s].idx == sn->ck) {
				step = s;
				break;
			}
		if (step == SIZE_MAX)
			continue;
		uint32_t slot = t->steps[step].slot;
		const struct vmt_checkpoint *ck = &t->cks[sn->ck];
		ds.here = 0;
		ds.proto = (struct rp_fid_diff){ .pid = ck->pid, .ck = sn->ck, .after_event = -1 };
		for (size_t s = step; s-- > 0;)
			if (t->steps[s].kind == RP_EVENT && t->steps[s].slot == slot) {
				ds.proto.after_event = (long)t->steps[s].idx;
				break;
			}
		struct rp_snap_vma *r = malloc((sn->n + 1) * sizeof(*r));
		struct model m = { 0 };
		if (!r)
			break;
		memcpy(r, sh->snap_vmas + sn->first, sn->n * sizeof(*r));
		qsort(r, sn->n, sizeof(*r), cmp_snap);
		struct rp_fid_diff *d;
		const struct vmt_map *lay = rp_trace_layout(t, ck);
		int64_t want = (int64_t)(ck->vma_count - ck->recorder_vmas);
		if (lay) {
			struct model rl = { 0 };
			from_layout(&rl, e, slot, lay);
			compare(&ds, &rl, r, sn->n);
			uint32_t special = specials(lay);
			if (!rl.bad && build_model(e, slot, step, &m, 0) == 0 && (int64_t)(m.n + special) != want &&
			    (d = add(&ds, "count"))) {
				char why[200];
				first_departure(why, sizeof(why), &rl, &m);
				snprintf(d->recorded, sizeof(d->recorded), "%lld VMAs", (long long)want);
				snprintf(d->replay, sizeof(d->replay),
				         "the map and the recorded calls give %zu: the trace lacks something%.190s",
				         m.n + special, why);
			}
			free(rl.v);
		} else if (build_model(e, slot, step, &m, 0) < 0) {
			if ((d = add(&ds, "count"))) {
				snprintf(d->recorded, sizeof(d->recorded), "no map to rebuild the layout from");
				snprintf(d->replay, sizeof(d->replay), "%u VMAs", sn->n);
			}
		} else {
			compare(&ds, &m, r, sn->n);
			uint32_t special = 0;
			for (size_t s = step; s-- > 0;)
				if (t->steps[s].kind == RP_MAP && t->steps[s].slot == slot) {
					special = specials(&t->maps[t->steps[s].idx]);
					break;
				}
			if ((int64_t)(m.n + special) != want && (d = add(&ds, "count"))) {
				snprintf(d->recorded, sizeof(d->recorded), "%lld VMAs", (long long)want);
				snprintf(d->replay, sizeof(d->replay),
				         "the map and the recorded calls give %zu: the trace lacks something", m.n + special);
			}
		}
		free(m.v);
		free(r);
	}
	*out = ds.d;
	return ds.n;
}
