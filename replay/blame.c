/* blame.c - see blame.h.
 *
 * The referee is the simulator in the profile of the recording's kernel,
 * replaying the same trace: it holds the rules that kernel merges and
 * splits by, and nothing of the replay's circumstances.  When it gives the
 * recorded count, the trace holds what the count depends on and the
 * difference is the replaying kernel's layout (a 6.1 replay of a threaded
 * program: 6.1 still merges MAP_STACK stacks); the report names the first
 * event of the process whose outcome differs from the referee's, with the
 * rules that decided both where the simulator decided them.  When the
 * referee cannot give the recorded count either, the trace lacks
 * something, and the first recorded VMA the referee lays out otherwise is
 * named where the trace has the recorded VMAs (LAYOUT). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "lib/kernel_match.h"
#include "lib/sysfmt.h"
#include "replay/backend.h"
#include "replay/blame.h"
#include "replay/fidelity.h"
#include "replay/sim/sim.h"

/* "6.18.44-fc" -> 6, 18; 0 when it does not start so. */
static int release(const char *s, unsigned *maj, unsigned *min)
{
	return s && sscanf(s, "%u.%u", maj, min) == 2;
}

const struct sim_profile *rp_recording_profile(const char *recorded)
{
	struct utsname u;
	unsigned rm, rn, pm, pn;
	if (!recorded || !recorded[0])
		return NULL;
	if (uname(&u) == 0 && strcmp(u.release, recorded) == 0)
		return sim_profile_find("host");
	if (!release(recorded, &rm, &rn))
		return NULL;
	const struct sim_profile *best = NULL;
	for (size_t i = 0; i < sim_profile_count(); i++) {
		const struct sim_profile *p = sim_profile_at(i);
		if (release(sim_profile_name(p), &pm, &pn) && (pm < rm || (pm == rm && pn <= rn)))
			best = p;   /* oldest first: the last not newer */
	}
	return best;
}

/* The recording's transparent_hugepage mode (this machine's when the
 * header does not say). */
static int recorded_thp(const struct rp_trace *t)
{
	int thp = sim_thp_parse(t->header.host.thp_enabled);
	return thp > SIM_THP_HOST ? thp : sim_thp_host();
}

/* The referee's replay of the trace, in its own engine (the simulator
 * runs in this process): 0, or -1 when it could not be made whole. */
static int referee_run(const struct rp_engine *e, const struct sim_profile *p, struct rp_engine *re,
                       struct rp_opts *o)
{
	*o = *e->o;
	o->target = "sim";
	o->kernel = sim_profile_name(p);
	o->placement = RP_PLACE_RECORDED;
	o->threads = o->per_event = o->strict = 0;
	o->repeat = o->loop = o->quiet = o->outcomes = 1;
	o->duration = 0;
	o->json = NULL;
	struct rp_backend_cfg cfg = { .profile = p, .outcomes = 1, .clock_cost = e->cfg.clock_cost,
	                              .page_size = e->cfg.page_size, .thp = recorded_thp(e->t) };
	if (rp_engine_init(re, e->t, o, &rp_sim_backend, &cfg, NULL) < 0)
		return -1;
	re->silent = 1;
	rp_engine_run_once(re);
	return atomic_load(&re->sh->incomplete) ? -1 : 0;
}

static size_t step_of_ck(const struct rp_trace *t, uint32_t ck)
{
	for (size_t s = 0; s < t->nsteps; s++, rp_trace_tick(t, s))
		if (t->steps[s].kind == RP_CHECKPOINT && t->steps[s].idx == ck)
			return s;
	return SIZE_MAX;
}

/* The first event of the checkpoint's process, before it, whose outcome
 * differs between the two replays (a and b), else whose count moves away
 * from the other's; -1 none. */
static long first_difference(const struct rp_trace *t, size_t ck_step, const struct rp_evres *a,
                             const struct rp_evres *b)
{
	uint32_t slot = t->steps[ck_step].slot;
	long by_count = -1;
	int64_t gap = INT64_MIN;
	for (size_t s = 0; s < ck_step; s++) {
		rp_trace_tick(t, s);
		const struct rp_step *st = &t->steps[s];
		if (st->kind != RP_EVENT || st->slot != slot)
			continue;
		const struct rp_evres *x = &a[st->idx], *y = &b[st->idx];
		if (!x->done || !y->done || x->skipped || y->skipped)
			continue;
		if (x->outcome != y->outcome)
			return (long)st->idx;
		if (x->vma_count < 0 || y->vma_count < 0 || by_count >= 0)
			continue;
		if (gap == INT64_MIN)
			gap = x->vma_count - y->vma_count;
		else if (x->vma_count - y->vma_count != gap)
			by_count = (long)st->idx;
	}
	return by_count;
}

static void outcome_of(char *buf, size_t len, const struct rp_evres *v)
{
	if (v->rule)
		snprintf(buf, len, "%s (%s)", vr_outcome_name(v->outcome), v->rule);
	else
		snprintf(buf, len, "%s", vr_outcome_name(v->outcome));
}

/* Drop the checkpoint's "count" differences (the map-and-calls model's
 * guess) and add one verdict of `kind`; its text is filled by the caller. */
static struct rp_fid_diff *verdict(struct rp_run *r, uint32_t ck, const char *kind)
{
	size_t j = 0;
	struct rp_fid_diff proto = { .ck = ck, .after_event = -1 };
	int have = 0;
	for (size_t i = 0; i < r->nfdiffs; i++) {
		if (r->fdiffs[i].ck == ck && !have) {
			proto = r->fdiffs[i];
			have = 1;
		}
		if (r->fdiffs[i].ck == ck && strcmp(r->fdiffs[i].kind, "count") == 0)
			continue;
		r->fdiffs[j++] = r->fdiffs[i];
	}
	r->nfdiffs = j;
	struct rp_fid_diff *nd = realloc(r->fdiffs, (r->nfdiffs + 1) * sizeof(*nd));
	if (!nd)
		return NULL;
	r->fdiffs = nd;
	/* after this checkpoint's other differences */
	size_t at = r->nfdiffs;
	for (size_t i = r->nfdiffs; i-- > 0;)
		if (r->fdiffs[i].ck == ck) {
			at = i + 1;
			break;
		}
	memmove(&nd[at + 1], &nd[at], (r->nfdiffs - at) * sizeof(*nd));
	r->nfdiffs++;
	nd[at] = proto;
	nd[at].kind = kind;
	nd[at].recorded[0] = nd[at].replay[0] = 0;
	return &nd[at];
}

/* The first pair of calls that overlapped in time on neighbouring pages
 * in the process, before seq `before`, or in an ancestor before it forked
 * the line: which went first decides which VMAs merged, and where both
 * orders were possible no record says which (docs/trace-format.md,
 * "Order"); NULL none. */
static const struct vmt_order_near *near_pair(const struct rp_trace *t, int32_t pid, uint64_t before)
{
	for (int depth = 0; pid > 0 && depth < 64; depth++) {
		for (size_t i = 0; i < t->nnears; i++) {
			const struct vmt_order_near *n = &t->nears[i];
			if (n->pid == pid && (n->first.seq < before || n->then.seq < before))
				return n;
		}
		int32_t ppid = 0;
		for (size_t k = 0; k < t->nprocs && !ppid; k++)
			if (t->procs[k].pid == pid)
				ppid = t->procs[k].ppid;
		for (size_t k = 0; k < t->nimages; k++)
			if (t->images[k].pid == pid && t->images[k].image == 0)
				before = t->images[k].seq;   /* the fork that made it */
		pid = ppid;
	}
	return NULL;
}

/* "the trace lacks something", or where calls overlapped on neighbouring
 * pages, that the trace cannot tell which order they had. */
static void lacks(char *buf, size_t size, const struct rp_trace *t, const struct vmt_checkpoint *ck)
{
	const struct vmt_order_near *n = near_pair(t, ck->pid, ck->seq);
	const char *a = n ? vmt_sys_name(n->first.sys) : NULL, *b = n ? vmt_sys_name(n->then.sys) : NULL;
	if (!n)
		snprintf(buf, size, "the trace lacks something");
	else
		snprintf(buf, size, "the trace cannot tell the order: calls of pid %d overlapped in time on "
		         "neighbouring pages (first event seq %llu tid %d %s and seq %llu tid %d %s); which took "
		         "the mmap_lock first decides which VMAs merge, and no record holds it", n->pid,
		         (unsigned long long)n->first.seq, n->first.tid, a ? a : "?",
		         (unsigned long long)n->then.seq, n->then.tid, b ? b : "?");
}

int rp_blame(const struct rp_engine *e, const char *kernel, struct rp_run *r)
{
	const struct rp_trace *t = e->t;
	const char *recorded = t->header.host.kernel;
	int sim = strcmp(e->be->target, "sim") == 0, fail = 0, differs = 0;
	struct utsname u;
	if (!r->ck_got)
		return 0;
	for (size_t i = 0; i < t->ncks; i++)
		differs |= r->ck_got[i] != (int64_t)(t->cks[i].vma_count - t->cks[i].recorder_vmas);
	if (!differs)
		return 0;
	int same = uname(&u) == 0 && km_same_kernel(sim, kernel, u.release, recorded);
	const struct sim_profile *p = rp_recording_profile(recorded);
	const char *pname = !p ? NULL : p == sim_profile_find("host") ? "host" : sim_profile_name(p);
	/* this replay is the referee: the profile and the THP mode it recorded in */
	int self = sim && p && e->cfg.profile == p && e->cfg.thp == recorded_thp(t);
	struct rp_engine re = { 0 };
	struct rp_opts ro;
	struct rp_fid_diff *refd = NULL;
	size_t nrefd = 0;
	if (p && !self) {
		if (referee_run(e, p, &re, &ro) < 0)
			p = NULL;
		else
			nrefd = rp_fidelity_diffs(&re, &refd);
	}
	char who[96];
	snprintf(who, sizeof(who), "%s%s", sim ? "sim:" : "kernel ", kernel);
	for (uint32_t c = 0; c < t->ncks; c++) {
		const struct vmt_checkpoint *ck = &t->cks[c];
		int64_t want = (int64_t)(ck->vma_count - ck->recorder_vmas), got = r->ck_got[c];
		if (got == want)
			continue;
		if (!p) {       /* nothing to tell the two apart: as before, the model's guess */
			fail = 1;
			continue;
		}
		int64_t ref = self ? got : re.sh->ck[c];
		struct rp_fid_diff *d;
		if (ref != want) {
			fail = 1;
			if (!(d = verdict(r, c, "count")))
				continue;
			const struct rp_fid_diff *first = NULL;
			for (size_t i = 0; !self && i < nrefd && !first; i++)
				if (refd[i].ck == c && strcmp(refd[i].kind, "count") != 0)
					first = &refd[i];
			snprintf(d->recorded, sizeof(d->recorded), "%lld VMAs", (long long)want);
			char why[320];
			lacks(why, sizeof(why), t, ck);
			if (first)
				snprintf(d->replay, sizeof(d->replay), "the recording's kernel's profile (sim:%.12s) gives %lld: "
				         "%s: recorded %.150s; sim:%.12s has %.200s", pname,
				         (long long)ref, why, first->recorded, pname, first->replay);
			else
				snprintf(d->replay, sizeof(d->replay), "the recording's kernel's profile (sim:%.12s) gives "
				         "%lld: %s", pname, (long long)ref, why);
			continue;
		}
		fail |= same;
		if (!(d = verdict(r, c, "layout")))
			continue;
		snprintf(d->recorded, sizeof(d->recorded), "%lld VMAs", (long long)want);
		size_t s = step_of_ck(t, c);
		long ev = s == SIZE_MAX ? -1 : first_difference(t, s, e->sh->ev, re.sh->ev);
		char call[256] = "", here[200] = "", there[200] = "";
		if (ev >= 0) {
			sysfmt_call(call, sizeof(call), &t->events[ev]);
			outcome_of(here, sizeof(here), &e->sh->ev[ev]);
			outcome_of(there, sizeof(there), &re.sh->ev[ev]);
			snprintf(d->replay, sizeof(d->replay), "%.40s lays VMAs out differently: the recording's kernel's "
			         "profile (sim:%.12s) gives the recorded count; first at event %ld, %.190s: here %.150s, "
			         "sim:%.12s %.150s", who, pname, ev, call, here, pname, there);
		} else {
			snprintf(d->replay, sizeof(d->replay), "%.40s lays VMAs out differently: the recording's kernel's "
			         "profile (sim:%.12s) gives the recorded count", who, pname);
		}
	}
	free(refd);
	if (re.sh)
		rp_engine_free(&re);
	return fail;
}
