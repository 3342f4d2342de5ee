#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json_write.h"
#include "lib/output.h"
#include "lib/sysfmt.h"
#include "replay/results.h"
#include "replay/sim/sim.h"

void rp_run_reset(struct rp_run *r)
{
	memset(r, 0, sizeof(*r));
	for (int s = 0; s < VMT_SYS_COUNT; s++)
		lat_reset(&r->lat[s]);
	r->vma_start = r->vma_final = r->vma_peak = -1;
}

void rp_run_free(struct rp_run *r)
{
	free(r->fdiffs);
	free(r->ck_got);
	r->fdiffs = NULL;
	r->nfdiffs = 0;
	r->ck_got = NULL;
}

static void print_diffs(FILE *f, const struct rp_run *r, uint32_t ck)
{
	for (size_t i = 0; i < r->nfdiffs; i++)
		if (r->fdiffs[i].ck == ck)
			fprintf(f, "  %s: recorded %s; replay: %s\n", r->fdiffs[i].kind, r->fdiffs[i].recorded,
			        r->fdiffs[i].replay);
}

/* The index of the last event of `slot` before step `s`, or -1. */
static long event_before(const struct rp_trace *t, size_t s, uint32_t slot)
{
	while (s-- > 0)
		if (t->steps[s].kind == RP_EVENT && t->steps[s].slot == slot)
			return (long)t->steps[s].idx;
	return -1;
}

void rp_run_add_loop(struct rp_run *r, const struct rp_engine *e, int report)
{
	const struct rp_trace *t = e->t;
	const struct rp_shared *sh = e->sh;
	for (int i = 0; i < e->be->nmodel; i++)
		r->model[i] += sh->model[i];
	if (e->cfg.events)   /* the next loop's per-event costs replace this one's */
		sim_events_restart(e->cfg.events);
	for (size_t i = 0; i < t->nevents; i++) {   /* one pass: the arrays may be spilled */
		rp_engine_tick(e, i);
		const struct rp_evres *v = &sh->ev[i];
		r->skipped += v->skipped;
		if (!v->done || v->skipped)
			continue;
		r->events++;
		lat_add(&r->lat[t->events[i].sys], v->latency_ns);
		r->outcomes[v->outcome < VR_OUTCOME_COUNT ? v->outcome : VR_FAILED]++;
		r->mismatches += v->mismatch;
		r->moved += v->moved;
	}
	if (atomic_load(&sh->incomplete) && !r->incomplete[0])
		snprintf(r->incomplete, sizeof r->incomplete, "%s", sh->why);
	if (report && !r->fdiffs)
		r->nfdiffs = rp_fidelity_diffs(e, &r->fdiffs);
	if (report && !r->ck_got && (r->ck_got = malloc((t->ncks + 1) * sizeof(*r->ck_got))))
		memcpy(r->ck_got, sh->ck, t->ncks * sizeof(*r->ck_got));
	for (size_t c = 0; c < t->ncks; c++) {   /* each checkpoint is one step */
		const struct vmt_checkpoint *ck = &t->cks[c];
		r->ck_total++;
		r->ck_matched += sh->ck[c] == (int64_t)(ck->vma_count - ck->recorder_vmas);
	}
	r->unplaceable += sh->unplaceable;
	uint64_t first = UINT64_MAX, last = 0;
	int64_t peak = -1;
	for (size_t s = 0; s < t->nprocs; s++) {
		const struct rp_slot_state *st = &sh->slots[s];
		if (st->t_first && st->t_first < first)
			first = st->t_first;
		if (st->t_last > last)
			last = st->t_last;
		if (st->peak > peak)
			peak = st->peak;
	}
	if (last > first)
		r->elapsed_ns += last - first;
	if (r->vma_start < 0 && t->nprocs)
		r->vma_start = sh->slots[0].start_count;
	if (t->nprocs)
		r->vma_final = sh->slots[0].end_count;
	if (peak > r->vma_peak)
		r->vma_peak = peak;
	r->loops++;
}

void rp_print_fidelity(FILE *f, const struct rp_trace *t, const struct rp_run *r)
{
	for (size_t s = 0; r->ck_got && s < t->nsteps; s++) {
		rp_trace_tick(t, s);
		if (t->steps[s].kind != RP_CHECKPOINT)
			continue;
		const struct vmt_checkpoint *ck = &t->cks[t->steps[s].idx];
		int64_t want = (int64_t)(ck->vma_count - ck->recorder_vmas);
		int64_t got = r->ck_got[t->steps[s].idx];
		if (got == want)
			continue;
		long ev = event_before(t, s, t->steps[s].slot);
		char where[48];
		if (ev < 0)
			snprintf(where, sizeof(where), "before the first event");
		else
			snprintf(where, sizeof(where), "after event %ld", ev);
		if (got == INT64_MIN)
			fprintf(f, "fidelity: pid %d checkpoint %s: not reached (recorded %lld VMAs)\n",
			        ck->pid, where, (long long)want);
		else
			fprintf(f, "fidelity: pid %d checkpoint %s: %lld VMAs, recorded %lld\n",
			        ck->pid, where, (long long)got, (long long)want);
		print_diffs(f, r, t->steps[s].idx);
	}
}

/* ---- metrics --------------------------------------------------------- */

/* A metric's value in one run; arg: the system call, outcome or model
 * count it is of. */
typedef double (*metric_fn)(const struct rp_run *r, int arg);

static double m_calls(const struct rp_run *r, int s) { return (double)r->lat[s].count; }
static double m_ops(const struct rp_run *r, int s)
{
	return r->lat[s].time_ns ? (double)r->lat[s].count * 1e9 / (double)r->lat[s].time_ns : 0;
}
static double m_mean(const struct rp_run *r, int s) { return lat_mean(&r->lat[s]); }
static double m_stddev(const struct rp_run *r, int s) { return lat_stddev(&r->lat[s]); }
static double m_min(const struct rp_run *r, int s) { return r->lat[s].count ? (double)r->lat[s].min : 0; }
static double m_p50(const struct rp_run *r, int s) { return (double)lat_percentile(&r->lat[s], 50); }
static double m_p90(const struct rp_run *r, int s) { return (double)lat_percentile(&r->lat[s], 90); }
static double m_p99(const struct rp_run *r, int s) { return (double)lat_percentile(&r->lat[s], 99); }
static double m_max(const struct rp_run *r, int s) { return (double)r->lat[s].max; }

static const struct { const char *suffix; metric_fn fn; } sys_metrics[] = {
	{ "calls", m_calls }, { "ops_per_sec", m_ops },
	{ "latency_ns.mean", m_mean }, { "latency_ns.stddev", m_stddev },
	{ "latency_ns.min", m_min }, { "latency_ns.p50", m_p50 }, { "latency_ns.p90", m_p90 },
	{ "latency_ns.p99", m_p99 }, { "latency_ns.max", m_max },
};

#define RUN_FIELD(name, expr) \
	static double name(const struct rp_run *r, int s) { (void)s; return (double)(expr); }
RUN_FIELD(g_events, r->events)
RUN_FIELD(g_loops, r->loops)
RUN_FIELD(g_elapsed, r->elapsed_ns)
RUN_FIELD(g_eps, r->elapsed_ns ? (double)r->events * 1e9 / (double)r->elapsed_ns : 0)
RUN_FIELD(g_start, r->vma_start)
RUN_FIELD(g_final, r->vma_final)
RUN_FIELD(g_peak, r->vma_peak)
RUN_FIELD(g_ckm, r->ck_matched)
RUN_FIELD(g_ckt, r->ck_total)
RUN_FIELD(g_mism, r->mismatches)
RUN_FIELD(g_skip, r->skipped)
RUN_FIELD(g_unpl, r->unplaceable)
RUN_FIELD(g_moved, r->moved)

static const struct { const char *name; metric_fn fn; } run_metrics[] = {
	{ "vmreplay.events", g_events },
	{ "vmreplay.loops", g_loops },
	{ "vmreplay.elapsed_ns", g_elapsed },
	{ "vmreplay.events_per_sec", g_eps },
	{ "vmreplay.vma_count.start", g_start },
	{ "vmreplay.vma_count.final", g_final },
	{ "vmreplay.vma_count.peak", g_peak },
	{ "vmreplay.fidelity.checkpoints_matched", g_ckm },
	{ "vmreplay.fidelity.checkpoints_total", g_ckt },
	{ "vmreplay.fidelity.result_mismatches", g_mism },
	{ "vmreplay.skipped_events", g_skip },
	{ "vmreplay.unplaceable_mappings", g_unpl },
	{ "vmreplay.fidelity.moved_events", g_moved },
};

/* ---- JSON ------------------------------------------------------------ */


static void json_num(FILE *f, double v)
{
	if (v == (double)(int64_t)v)
		fprintf(f, "%lld", (long long)v);
	else
		fprintf(f, "%.3f", v);
}

/* One metric, a value per run: fn(run, arg), or `constant` without fn (a
 * value of the whole replay, the same in every run's column). */
static void json_row(FILE *f, int *first, const char *name, const struct rp_report *rep,
                     metric_fn fn, int arg, double constant)
{
	fprintf(f, "%s\n    ", *first ? "" : ",");
	*first = 0;
	json_write_escaped(f, name);
	fputs(": [", f);
	for (int i = 0; i < rep->nruns; i++) {
		if (i)
			fputs(", ", f);
		json_num(f, fn ? fn(&rep->runs[i], arg) : constant);
	}
	fputc(']', f);
}

static void json_metric(FILE *f, int *first, const char *name, const struct rp_report *rep,
                        metric_fn fn, int arg)
{
	json_row(f, first, name, rep, fn, arg, 0);
}

static int sys_used(const struct rp_report *rep, int s)
{
	for (int i = 0; i < rep->nruns; i++)
		if (rep->runs[i].lat[s].count)
			return 1;
	return 0;
}


/* An outcome's total; "move" is every move (the move_* kinds are each a
 * part of it), as results before them counted moves. */
static uint64_t outcome_total(const struct rp_run *r, int o)
{
	if (o != VR_MOVE)
		return r->outcomes[o];
	uint64_t n = 0;
	for (int k = 0; k < VR_OUTCOME_COUNT; k++)
		if (vr_is_move(k))
			n += r->outcomes[k];
	return n;
}

static double g_outcome(const struct rp_run *r, int o) { return (double)outcome_total(r, o); }
static double g_model(const struct rp_run *r, int i) { return (double)r->model[i]; }


static void json_metrics(FILE *f, const struct rp_report *rep)
{
	int first = 1;
	char name[128];
	fputs("  \"metrics\": {", f);
	for (int s = 1; s < VMT_SYS_COUNT; s++) {
		if (!sys_used(rep, s))
			continue;
		for (size_t m = 0; m < sizeof(sys_metrics) / sizeof(*sys_metrics); m++) {
			snprintf(name, sizeof(name), "vmreplay.%s.%s", vmt_sys_key(s), sys_metrics[m].suffix);
			json_metric(f, &first, name, rep, sys_metrics[m].fn, s);
		}
	}
	for (size_t m = 0; m < sizeof(run_metrics) / sizeof(*run_metrics); m++)
		json_metric(f, &first, run_metrics[m].name, rep, run_metrics[m].fn, 0);
	for (int o = 0; o < VR_OUTCOME_COUNT; o++) {
		snprintf(name, sizeof(name), "vmreplay.merge.%s", vr_outcome_name(o));
		json_metric(f, &first, name, rep, g_outcome, o);
	}
	for (int i = 0; i < rep->e->be->nmodel; i++) {
		snprintf(name, sizeof(name), "vmreplay.model.%s", rep->e->be->model_name(i));
		json_metric(f, &first, name, rep, g_model, i);
	}
	json_row(f, &first, "vmreplay.clock_cost_ns", rep, NULL, 0, (double)rep->clock_cost);
	fputs("\n  }", f);
}

/* The simulator's modelled cost of one event (docs/results-schema.md):
 * "model", its non-zero counts, and "cited", the rules of rules.def whose
 * work they include ("C1 28c5609fb2"); nothing when none was kept. */
static void json_event_model(FILE *f, const struct sim_events *ev, const struct sim_calib *k, uint64_t seq)
{
	struct sim_cost c;
	uint32_t rules;
	const char *sep = "", *commit;

	if (!ev || !sim_event_cost(ev, seq, &c, &rules))
		return;
	fputs(", \"model\": {", f);
	for (int i = 0; i < SIM_COST_COUNT; i++) {
		uint64_t v = sim_cost_value(&c, i);
		if (v) {
			fprintf(f, "%s\"%s\": %llu", sep, sim_cost_name(i), (unsigned long long)v);
			sep = ", ";
		}
	}
	fprintf(f, "%s\"cost_ns\": %.0f", sep, sim_cost_ns(&c, k ? k : sim_calib_default()));
	fputs("}, \"cited\": [", f);
	sep = "";
	for (int i = 0; i < sim_rule_count() && i < 32; i++)
		if (rules & (1u << i)) {
			const char *id = sim_rule_id(i, &commit);
			fprintf(f, "%s\"%s %s\"", sep, id, commit);
			sep = ", ";
		}
	fputc(']', f);
}

static void json_per_event(FILE *f, const struct rp_report *rep)
{
	const struct rp_trace *t = rep->t;
	const struct rp_shared *sh = rep->e->sh;
	char call[512];
	fputs(",\n  \"per_event\": [", f);
	for (size_t i = 0; i < t->nevents; i++) {
		rp_engine_tick(rep->e, i);
		const struct rp_evres *v = &sh->ev[i];
		const struct vmt_event *ev = &t->events[i];
		sysfmt_call(call, sizeof(call), ev);
		fprintf(f, "%s\n    {\"i\": %zu, \"pid\": %d, \"order\": %llu, \"op\": ", i ? "," : "", i, ev->pid,
		        (unsigned long long)v->order);
		json_write_escaped(f, vmt_sys_key(ev->sys));
		fputs(", \"outcome\": ", f);
		json_write_escaped(f, !v->done ? "not_reached" : v->skipped ? "skipped" : vr_outcome_name(v->outcome));
		fprintf(f, ", \"vma_count\": %lld, ", (long long)v->vma_count);
		/* a skipped call has no errno or result of its own (not the recorded ones) */
		if (v->done && !v->skipped)
			fprintf(f, "\"errno\": %d, \"result\": %lld, \"offset\": %lld, \"moved\": %s",
			        v->err, (long long)v->ret, (long long)v->offset, v->moved ? "true" : "false");
		else
			fputs("\"errno\": null, \"result\": null, \"offset\": null, \"moved\": false", f);
		fprintf(f, ", \"recorded_errno\": %d, \"recorded_result\": %lld, \"mismatch\": %s, \"latency_ns\": %llu, \"call\": ",
		        ev->err, (long long)ev->result, v->mismatch ? "true" : "false", (unsigned long long)v->latency_ns);
		json_write_escaped(f, call);
		if (strcmp(rep->target, "sim") == 0) {
			fputs(", \"rule\": ", f);
			if (v->rule)
				json_write_escaped(f, v->rule);
			else
				fputs("null", f);
			json_event_model(f, rep->e->cfg.events, rep->e->cfg.calib, ev->seq);
		}
		fputc('}', f);
	}
	fputs("\n  ]", f);
}

/* The first run's first loop: where its checkpoints were reported. */
static void json_fidelity_diffs(FILE *f, const struct rp_report *rep)
{
	const struct rp_run *r = &rep->runs[0];
	fputs(",\n  \"fidelity_diffs\": [", f);
	for (size_t i = 0; i < r->nfdiffs; i++) {
		const struct rp_fid_diff *d = &r->fdiffs[i];
		fprintf(f, "%s\n    {\"pid\": %d, \"checkpoint\": %u, \"after_event\": %ld, \"kind\": ", i ? "," : "",
		        d->pid, d->ck, d->after_event);
		json_write_escaped(f, d->kind);
		fputs(", \"recorded\": ", f);
		json_write_escaped(f, d->recorded);
		fputs(", \"replay\": ", f);
		json_write_escaped(f, d->replay);
		fputc('}', f);
	}
	fputs(r->nfdiffs ? "\n  ]" : "]", f);
}

int rp_write_json(const char *path, const struct rp_report *rep)
{
	struct output out;
	FILE *f = output_open(&out, "vmreplay", path, VMT_OUTPUT_MODE_PRIVATE);
	if (!f)
		return -1;
	struct vmt_host h;
	vmt_host_probe(&h);
	fputs("{\n  \"vmrec_results\": 1,\n  \"trace\": ", f);
	json_write_escaped(f, rep->t->path);
	fputs(",\n  \"target\": ", f);
	json_write_escaped(f, rep->target);
	fputs(",\n  \"kernel\": ", f);
	json_write_escaped(f, rep->kernel);
	fputs(",\n  \"host\": {\"cpu\": ", f);
	json_write_escaped(f, h.cpu);
	fprintf(f, ", \"cores\": %u, \"memory\": %llu, \"page_size\": %u, \"machine\": ", h.cores,
	        (unsigned long long)h.memory_bytes, h.page_size);
	json_write_escaped(f, h.machine);
	fputs(", \"kernel\": ", f);
	json_write_escaped(f, h.kernel);
	fputs(", \"thp_enabled\": ", f);
	json_write_escaped(f, h.thp_enabled);
	fputs(", \"thp_defrag\": ", f);
	json_write_escaped(f, h.thp_defrag);
	fputs("},\n  \"command\": ", f);
	char cmd[4096];
	size_t n = 0;
	cmd[0] = 0;
	for (int i = 0; i < rep->o->argc && n < sizeof(cmd) - 1; i++)
		n += (size_t)snprintf(cmd + n, sizeof(cmd) - n, "%s%s", i ? " " : "", rep->o->argv[i]);
	json_write_escaped(f, cmd);
	const char *why = rp_incomplete_reason(rep);
	fprintf(f, ",\n  \"runs\": %d,\n  \"complete\": %s,\n", rep->nruns, why ? "false" : "true");
	if (why) {
		fputs("  \"incomplete_reason\": ", f);
		json_write_escaped(f, why);
		fputs(",\n", f);
	}
	json_metrics(f, rep);
	json_fidelity_diffs(f, rep);
	if (rep->o->per_event)
		json_per_event(f, rep);
	fputs("\n}\n", f);
	return output_close(&out);
}

const char *rp_incomplete_reason(const struct rp_report *rep)
{
	if (rep->t->incomplete)
		return rep->t->note;
	for (int r = 0; r < rep->nruns; r++)
		if (rep->runs[r].incomplete[0])
			return rep->runs[r].incomplete;
	return NULL;
}

/* ---- text ------------------------------------------------------------ */

void rp_print_summary(FILE *f, const struct rp_report *rep)
{
	const struct rp_run *r = &rep->runs[rep->nruns - 1];
	fprintf(f, "vmreplay: %s: target %s, kernel %s, %llu events replayed (%d run%s x %llu loop%s)\n",
	        rep->t->path, rep->target, rep->kernel, (unsigned long long)r->events, rep->nruns,
	        rep->nruns == 1 ? "" : "s", (unsigned long long)r->loops, r->loops == 1 ? "" : "s");
	fprintf(f, "%-14s %10s %12s %9s %9s %8s %8s %8s %8s %9s\n", "syscall", "calls", "ops/s",
	        "mean", "stddev", "min", "p50", "p90", "p99", "max");
	for (int s = 1; s < VMT_SYS_COUNT; s++) {
		const struct lat_stats *l = &r->lat[s];
		if (!l->count)
			continue;
		fprintf(f, "%-14s %10llu %12.0f %9.0f %9.0f %8llu %8llu %8llu %8llu %9llu\n",
		        vmt_sys_key(s), (unsigned long long)l->count, m_ops(r, s), lat_mean(l),
		        lat_stddev(l), (unsigned long long)l->min,
		        (unsigned long long)lat_percentile(l, 50), (unsigned long long)lat_percentile(l, 90),
		        (unsigned long long)lat_percentile(l, 99), (unsigned long long)l->max);
	}
	fprintf(f, "latency in ns around each call, clock cost %llu ns subtracted; %.0f events/s overall\n",
	        (unsigned long long)rep->clock_cost, g_eps(r, 0));
	fprintf(f, "VMAs: start %lld, final %lld, peak %lld\n", (long long)r->vma_start,
	        (long long)r->vma_final, (long long)r->vma_peak);
	fputs("merge:", f);
	for (int o = 0; o < VR_OUTCOME_COUNT; o++)
		fprintf(f, " %s %llu", vr_outcome_name(o), (unsigned long long)outcome_total(r, o));
	fputc('\n', f);
	fprintf(f, "fidelity: checkpoints matched %llu/%llu, result mismatches %llu, skipped %llu, unplaceable %llu",
	        (unsigned long long)r->ck_matched, (unsigned long long)r->ck_total,
	        (unsigned long long)r->mismatches, (unsigned long long)r->skipped,
	        (unsigned long long)r->unplaceable);
	if (r->moved)   /* absolute low addresses the replay could not keep */
		fprintf(f, ", moved %llu", (unsigned long long)r->moved);
	fputc('\n', f);
}
