/* vmtrace stats: what a trace holds, per system call, process and thread. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/vmtrace.h"
#include "analysis/vmtrace_files.h"
#include "analysis/vmtrace_seqs.h"
#include "lib/json_write.h"

struct call_stats {
	uint64_t count, errors, latency_ns, max_latency_ns;
};

struct task_stats {
	int32_t pid, tid;
	uint64_t events;
};

/* Threads by (pid, tid): an open-addressing index into a growing array. */
struct tasks {
	struct task_stats *v;
	size_t n, cap;
	uint32_t *index;   /* slot -> position + 1, 0 = empty */
	size_t slots;
};

static size_t task_hash(int32_t pid, int32_t tid, size_t slots)
{
	uint64_t k = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
	return (size_t)((k * 0x9e3779b97f4a7c15ull) >> 20) & (slots - 1);
}

static int tasks_grow(struct tasks *t)
{
	size_t slots = t->slots ? t->slots * 2 : 1024;
	uint32_t *index = calloc(slots, sizeof(*index));
	struct task_stats *v = realloc(t->v, slots / 2 * sizeof(*v));
	if (!index || !v) {
		free(index);
		if (v)
			t->v = v;
		return -1;
	}
	t->v = v;
	t->cap = slots / 2;
	for (size_t i = 0; i < t->n; i++) {
		size_t s = task_hash(v[i].pid, v[i].tid, slots);
		while (index[s])
			s = (s + 1) & (slots - 1);
		index[s] = (uint32_t)i + 1;
	}
	free(t->index);
	t->index = index;
	t->slots = slots;
	return 0;
}

static struct task_stats *task_get(struct tasks *t, int32_t pid, int32_t tid)
{
	if (t->n + 1 > t->cap && tasks_grow(t) < 0)
		return NULL;
	size_t s = task_hash(pid, tid, t->slots);
	while (t->index[s]) {
		struct task_stats *ts = &t->v[t->index[s] - 1];
		if (ts->pid == pid && ts->tid == tid)
			return ts;
		s = (s + 1) & (t->slots - 1);
	}
	t->v[t->n] = (struct task_stats){ pid, tid, 0 };
	t->index[s] = (uint32_t)++t->n;
	return &t->v[t->n - 1];
}

static int by_pid_tid(const void *a, const void *b)
{
	const struct task_stats *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

struct proc_stats {
	int32_t pid, ppid;
	uint32_t images;
	char *exe;             /* of its last image */
	uint64_t threads, events;
	uint32_t end_how;      /* its END record's (0: none) */
	int32_t end_status;
	uint32_t last_image;   /* the newest image's number (exe is its) */
	/* who recorded its events: 1 libvmrec (preloaded), 2 the vmrec
	 * launcher (VMT_EV_LAUNCHER: every image from its execve on) */
	uint32_t by;
	uint32_t origin;       /* its last image's PROCESS origin (VMT_ORIGIN_*) */
};

struct stats {
	struct proc_stats *procs;
	size_t nprocs, proc_cap;
	struct call_stats calls[VMT_SYS_COUNT];
	struct tasks tasks;
	uint64_t events, errors, first_ns, end_ns;
	uint64_t processes, checkpoints[VMT_CK_FORK + 1], residency, stacks, files;
	uint64_t vma_min, vma_max;
	uint64_t ends[VMT_END_UNRECORDED + 1], lost;
	struct vmtrace_seqs seqs;   /* the seqs records hold, and how many none does: */
	uint64_t missing;
	int launcher;          /* any event or image is the launcher's: say who recorded what */
	size_t last_proc;      /* the process of the last event, a guess */
};

static const char *const reason_names[] = {
	[VMT_CK_START] = "start", [VMT_CK_EXEC] = "exec", [VMT_CK_EXIT] = "exit",
	[VMT_CK_REQUEST] = "request", [VMT_CK_FORK] = "fork",
};

static int add_process(struct stats *s, const struct vmt_process *p)
{
	struct proc_stats *ps = NULL;
	for (size_t i = s->nprocs; i-- > 0 && !ps;)
		if (s->procs[i].pid == p->pid)
			ps = &s->procs[i];
	if (!ps) {
		if (s->nprocs == s->proc_cap) {
			size_t cap = s->proc_cap ? s->proc_cap * 2 : 16;
			struct proc_stats *v = realloc(s->procs, cap * sizeof(*v));
			if (!v)
				return -1;
			s->procs = v;
			s->proc_cap = cap;
		}
		ps = &s->procs[s->nprocs++];
		*ps = (struct proc_stats){ .pid = p->pid, .ppid = p->ppid };
	}
	ps->images++;
	if (ps->images > 1 && p->image < ps->last_image)
		return 0;              /* read after a newer image (file order) */
	ps->last_image = p->image;
	ps->origin = p->origin;
	if (p->origin & VMT_ORIGIN_LAUNCHER)
		ps->by |= 2;        /* an image of no event is the launcher's too */
	s->launcher |= (p->origin & (VMT_ORIGIN_LAUNCHER | VMT_ORIGIN_UNPRIVILEGED)) != 0;
	free(ps->exe);
	ps->exe = strdup(p->exe ? p->exe : "");
	return ps->exe ? 0 : -1;
}

/* From where its last image was recorded, where the trace says (a
 * recording of the vmrec launcher). */
static const char *recorded_from(const struct proc_stats *p, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s%s",
	         p->by == 3 ? "execve: launcher, then preload" : p->by == 2 ? "execve: launcher"
	         : "preload",
	         p->origin & VMT_ORIGIN_UNPRIVILEGED ? ", run without its setuid/setgid privilege" : "");
	return buf;
}

static int by_pid(const void *a, const void *b)
{
	const struct proc_stats *x = a, *y = b;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* Threads and events per process, from the sorted thread table. */
static void sum_processes(struct stats *s)
{
	if (s->nprocs)   /* procs is NULL without any: qsort's is nonnull */
		qsort(s->procs, s->nprocs, sizeof(*s->procs), by_pid);
	size_t p = 0;
	for (size_t i = 0; i < s->tasks.n; i++) {
		const struct task_stats *t = &s->tasks.v[i];
		while (p < s->nprocs && s->procs[p].pid < t->pid)
			p++;
		if (p < s->nprocs && s->procs[p].pid == t->pid) {
			s->procs[p].threads++;
			s->procs[p].events += t->events;
		}
	}
}

static int add_record(struct stats *s, const struct vmt_record *rec)
{
	if (vmtrace_seqs_add(&s->seqs, rec) < 0)
		return -1;
	switch (rec->type) {
	case VMT_REC_EVENT: {
		const struct vmt_event *ev = &rec->u.event;
		struct task_stats *t = task_get(&s->tasks, ev->pid, ev->tid);
		if (!t)
			return -1;
		t->events++;
		/* an execve belongs to the image before (its recorder wrote it) */
		uint32_t by = vmt_sys_effect(ev->sys) == VMT_FX_EXEC ? 0
		              : ev->flags & VMT_EV_LAUNCHER ? 2 : 1;
		s->launcher |= by == 2;
		if (s->last_proc < s->nprocs && s->procs[s->last_proc].pid == ev->pid)
			s->procs[s->last_proc].by |= by;
		else
			for (size_t i = s->nprocs; i-- > 0;)
				if (s->procs[i].pid == ev->pid) {
					s->procs[i].by |= by;
					s->last_proc = i;
					break;
				}
		if (s->events++ == 0 || ev->time_ns < s->first_ns)
			s->first_ns = ev->time_ns;
		if (ev->time_ns + ev->latency_ns > s->end_ns)
			s->end_ns = ev->time_ns + ev->latency_ns;
		struct call_stats *c = &s->calls[ev->sys < VMT_SYS_COUNT ? ev->sys : VMT_SYS_NONE];
		c->count++;
		c->latency_ns += ev->latency_ns;
		if (ev->latency_ns > c->max_latency_ns)
			c->max_latency_ns = ev->latency_ns;
		if (ev->err) {
			c->errors++;
			s->errors++;
		}
		break;
	}
	case VMT_REC_PROCESS:
		if (rec->u.process.image == 0)
			s->processes++;
		return add_process(s, &rec->u.process);
	case VMT_REC_CHECKPOINT: {
		const struct vmt_checkpoint *ck = &rec->u.checkpoint;
		if (ck->reason <= VMT_CK_FORK)
			s->checkpoints[ck->reason]++;
		if (s->vma_max == 0 || ck->vma_count < s->vma_min)
			s->vma_min = ck->vma_count;
		if (ck->vma_count > s->vma_max)
			s->vma_max = ck->vma_count;
		break;
	}
	case VMT_REC_END:
		s->ends[rec->u.end.how]++;
		s->lost += rec->u.end.lost;
		for (size_t i = s->nprocs; i-- > 0;)
			if (s->procs[i].pid == rec->u.end.pid) {
				s->procs[i].end_how = rec->u.end.how;
				s->procs[i].end_status = rec->u.end.status;
				break;
			}
		break;
	case VMT_REC_RESIDENCY: s->residency++; break;
	case VMT_REC_STACK: s->stacks++; break;
	case VMT_REC_FILE: s->files++; break;
	}
	return 0;
}

/* How a process ended, as its END record says ("" without one). */
static const char *ended(const struct proc_stats *p, char *buf, size_t cap)
{
	switch (p->end_how) {
	case VMT_END_EXIT: snprintf(buf, cap, "exit %d", p->end_status); break;
	case VMT_END_SIGNAL: snprintf(buf, cap, "signal %d", p->end_status); break;
	case VMT_END_VANISHED: snprintf(buf, cap, "vanished"); break;
	case VMT_END_UNRECORDED:
		snprintf(buf, cap, "unrecorded exec%s", p->end_status == VMT_UNREC_STATIC ? ": static"
		         : p->end_status == VMT_UNREC_PRIVILEGED ? ": privileged" : "");
		break;
	default: snprintf(buf, cap, "%s", ""); break;
	}
	return buf;
}

static const char *call_name(int sys)
{
	const char *n = sys ? vmt_sys_key(sys) : NULL;   /* unique: names repeat (prctl) */
	return n ? n : "unknown";
}


static void print_json(FILE *f, const char *path, const struct vmt_header *h,
                       const struct stats *s, const struct vmt_reader_stats *st, int truncated)
{
	fprintf(f, "{\n  \"trace\": ");
	json_write_escaped(f, path);
	fprintf(f, ",\n  \"cmdline\": ");
	json_write_escaped(f, h->cmdline);
	fprintf(f, ",\n  \"kernel\": ");
	json_write_escaped(f, h->host.kernel);
	fprintf(f, ",\n  \"events\": %" PRIu64 ",\n  \"errors\": %" PRIu64
	        ",\n  \"duration_ns\": %" PRIu64 ",\n  \"file_bytes\": %" PRIu64
	        ",\n  \"bytes_per_event\": %.3f,\n  \"chunks\": %" PRIu64
	        ",\n  \"truncated\": %s,\n  \"lost_bytes\": %" PRIu64
	        ",\n  \"lost_records\": %" PRIu64 ",\n  \"missing_seqs\": %" PRIu64
	        ",\n  \"processes\": %" PRIu64 ",\n  \"threads\": %zu"
	        ",\n  \"residency_records\": %" PRIu64 ",\n  \"stacks\": %" PRIu64
	        ",\n  \"files\": %" PRIu64 ",\n",
	        s->events, s->errors, s->events ? s->end_ns - s->first_ns : 0,
	        st->file_bytes, s->events ? (double)st->file_bytes / (double)s->events : 0.0,
	        st->chunks, truncated ? "true" : "false", st->lost_bytes, s->lost, s->missing,
	        s->processes,
	        s->tasks.n, s->residency, s->stacks, s->files);
	fprintf(f, "  \"checkpoints\": {");
	const char *sep = "";
	for (int r = VMT_CK_START; r <= VMT_CK_FORK; r++) {
		fprintf(f, "%s\"%s\": %" PRIu64, sep, reason_names[r], s->checkpoints[r]);
		sep = ", ";
	}
	fprintf(f, "},\n  \"calls\": {");
	sep = "\n";
	for (int i = 0; i < VMT_SYS_COUNT; i++) {
		const struct call_stats *c = &s->calls[i];
		if (!c->count)
			continue;
		fprintf(f, "%s    \"%s\": {\"count\": %" PRIu64 ", \"errors\": %" PRIu64
		        ", \"latency_ns\": %" PRIu64 ", \"max_latency_ns\": %" PRIu64 "}",
		        sep, call_name(i), c->count, c->errors, c->latency_ns, c->max_latency_ns);
		sep = ",\n";
	}
	fprintf(f, "\n  },\n  \"tasks\": [");
	sep = "\n";
	for (size_t i = 0; i < s->tasks.n; i++) {
		fprintf(f, "%s    {\"pid\": %d, \"tid\": %d, \"events\": %" PRIu64 "}", sep,
		        s->tasks.v[i].pid, s->tasks.v[i].tid, s->tasks.v[i].events);
		sep = ",\n";
	}
	fprintf(f, "\n  ],\n  \"process_list\": [");
	sep = "\n";
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct proc_stats *p = &s->procs[i];
		fprintf(f, "%s    {\"pid\": %d, \"ppid\": %d, \"images\": %u, \"threads\": %" PRIu64
		        ", \"events\": %" PRIu64 ", \"exe\": ", sep, p->pid, p->ppid, p->images,
		        p->threads, p->events);
		json_write_escaped(f, p->exe);
		char how[32], from[96];
		if (p->end_how)
			fprintf(f, ", \"ended\": \"%s\"", ended(p, how, sizeof how));
		if (s->launcher)
			fprintf(f, ", \"recorded_from\": \"%s\"", recorded_from(p, from, sizeof from));
		fputc('}', f);
		sep = ",\n";
	}
	fprintf(f, "\n  ]\n}\n");
}

/* At most this many threads are listed one per line in the text form. */
#define TEXT_TASKS 20

static void print_text(FILE *f, const char *path, const struct vmt_header *h,
                       const struct stats *s, const struct vmt_reader_stats *st, int truncated)
{
	uint64_t dur = s->events ? s->end_ns - s->first_ns : 0;
	fprintf(f, "trace:       %s\n", path);
	fprintf(f, "command:     %s\n", h->cmdline ? h->cmdline : "");
	fprintf(f, "host:        %s %s, glibc %s, page size %u\n", h->host.kernel,
	        h->host.machine, h->host.glibc, h->host.page_size);
	fprintf(f, "events:      %" PRIu64 " (%" PRIu64 " failed) in %" PRIu64 ".%06" PRIu64 " s\n",
	        s->events, s->errors, dur / 1000000000u, dur % 1000000000u / 1000u);
	fprintf(f, "size:        %" PRIu64 " bytes in %" PRIu64 " chunks, %.2f bytes/event\n",
	        st->file_bytes, st->chunks,
	        s->events ? (double)st->file_bytes / (double)s->events : 0.0);
	if (truncated)
		fprintf(f, "truncated:   %" PRIu64 " bytes lost after the last complete chunk\n",
		        st->lost_bytes);
	fprintf(f, "processes:   %" PRIu64 ", threads: %zu\n", s->processes, s->tasks.n);
	if (s->ends[VMT_END_SIGNAL] + s->ends[VMT_END_VANISHED] + s->ends[VMT_END_UNRECORDED] +
	    s->lost)
		fprintf(f, "ended:       %" PRIu64 " exited, %" PRIu64 " killed by a signal, %" PRIu64
		        " vanished, %" PRIu64 " exec'd an unrecorded program; %" PRIu64
		        " records lost\n", s->ends[VMT_END_EXIT], s->ends[VMT_END_SIGNAL],
		        s->ends[VMT_END_VANISHED], s->ends[VMT_END_UNRECORDED], s->lost);
	uint64_t ends = 0;
	for (int i = 0; i <= VMT_END_UNRECORDED; i++)
		ends += s->ends[i];
	if (ends && s->missing > s->lost)   /* a trace with no END was made by a tool */
		fprintf(f, "silent loss: %" PRIu64 " seqs no record holds, the ENDs count %" PRIu64
		        " records lost\n", s->missing, s->lost);
	fprintf(f, "checkpoints:");
	int any = 0;
	for (int r = VMT_CK_START; r <= VMT_CK_FORK; r++)
		if (s->checkpoints[r])
			any = fprintf(f, " %s %" PRIu64, reason_names[r], s->checkpoints[r]);
	if (!any)
		fprintf(f, " none");
	if (s->vma_max)
		fprintf(f, " (VMAs %" PRIu64 "..%" PRIu64 ")", s->vma_min, s->vma_max);
	fprintf(f, "\n");
	fprintf(f, "records:     %" PRIu64 " residency, %" PRIu64 " stacks, %" PRIu64 " files\n",
	        s->residency, s->stacks, s->files);
	fprintf(f, "\n%-16s %10s %8s %12s %12s\n", "call", "count", "errors", "mean_ns", "max_ns");
	for (int i = 0; i < VMT_SYS_COUNT; i++) {
		const struct call_stats *c = &s->calls[i];
		if (c->count)
			fprintf(f, "%-16s %10" PRIu64 " %8" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n",
			        call_name(i), c->count, c->errors, c->latency_ns / c->count,
			        c->max_latency_ns);
	}
	fprintf(f, "\n%-8s %-8s %8s %10s  %s\n", "pid", "ppid", "threads", "events", "exe");
	for (size_t i = 0; i < s->nprocs && i < TEXT_TASKS; i++) {
		const struct proc_stats *p = &s->procs[i];
		char how[32], from[96];
		fprintf(f, "%-8d %-8d %8" PRIu64 " %10" PRIu64 "  %s", p->pid, p->ppid, p->threads,
		        p->events, p->exe);
		if (p->end_how && p->end_how != VMT_END_EXIT)
			fprintf(f, " (%s)", ended(p, how, sizeof how));
		if (s->launcher)
			fprintf(f, "  [from %s]", recorded_from(p, from, sizeof from));
		fputc('\n', f);
	}
	if (s->nprocs > TEXT_TASKS)
		fprintf(f, "... %zu more processes (--json lists all)\n", s->nprocs - TEXT_TASKS);
	fprintf(f, "\n%-8s %-8s %10s\n", "pid", "tid", "events");
	for (size_t i = 0; i < s->tasks.n && i < TEXT_TASKS; i++)
		fprintf(f, "%-8d %-8d %10" PRIu64 "\n", s->tasks.v[i].pid, s->tasks.v[i].tid,
		        s->tasks.v[i].events);
	if (s->tasks.n > TEXT_TASKS)
		fprintf(f, "... %zu more threads (--json lists all)\n", s->tasks.n - TEXT_TASKS);
}

int vmtrace_stats_main(int argc, char **argv)
{
	const char *path = NULL;
	int json = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!path && argv[i][0] != '-')
			path = argv[i];
		else
			path = NULL, i = argc;
	}
	if (!path) {
		fprintf(stderr, "usage: vmtrace stats [--json] TRACE\n");
		return 2;
	}
	struct vmt_reader *r = vmtrace_open(path, VMT_ORDER_FILE);
	if (!r)
		return 1;
	struct stats *s = calloc(1, sizeof(*s));
	struct vmt_record rec;
	int ret = 0, status = 0;
	while (s && (ret = vmt_reader_next(r, &rec)) > 0)
		if (add_record(s, &rec) < 0) {
			ret = VMT_ENOMEM;
			break;
		}
	if (!s || ret == VMT_ENOMEM) {
		fprintf(stderr, "vmtrace: %s: out of memory\n", path);
		status = 1;
	} else if (ret < 0 && ret != VMT_ETRUNCATED) {
		fprintf(stderr, "vmtrace: %s\n", vmt_reader_error(r));
		status = 1;
	} else {
		struct vmt_reader_stats st;
		vmt_reader_stats(r, &st);
		if (s->tasks.n)   /* a trace without events has no table */
			qsort(s->tasks.v, s->tasks.n, sizeof(*s->tasks.v), by_pid_tid);
		sum_processes(s);
		uint64_t first;
		s->missing = vmtrace_seqs_missing(&s->seqs, &first);
		(json ? print_json : print_text)(stdout, path, vmt_reader_header(r), s, &st,
		                                 ret == VMT_ETRUNCATED);
	}
	if (s) {
		for (size_t i = 0; i < s->nprocs; i++)
			free(s->procs[i].exe);
		free(s->procs);
		free(s->tasks.v);
		free(s->tasks.index);
		vmtrace_seqs_free(&s->seqs);
		free(s);
	}
	vmt_reader_close(r);
	return status;
}
