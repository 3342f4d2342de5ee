/* vmtrace_top.c - `vmtrace top`: which call sites made the VMA calls.
 *
 * One pass over the trace sums each (pid, stack) - events, latency, ranges
 * still mapped at the end, events whose replay outcome was "new" (from
 * --results, else from a replay in the simulator afterwards) - then each
 * distinct stack is symbolised once and folded to its call site:
 *   the attribution frame is the innermost frame in a known module other
 *   than libc, the dynamic loader and libvmrec; when there is none (the
 *   loader mapping libraries at start-up, a thread's exit) it is the first
 *   frame past the recorder's and the system-call wrapper.
 *   --depth N keeps N frames from there outward.
 * docs/attribution.md has the details. */
#include <getopt.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/symbolize.h"
#include "analysis/vmtrace.h"
#include "analysis/vmtrace_files.h"
#include "analysis/vmtrace_top_live.h"
#include "analysis/vmtrace_top_results.h"
#include "analysis/vmtrace_top_sim.h"

enum top_by { BY_EVENTS, BY_VMAS, BY_LATENCY, BY_NEW };

static const struct {
	const char *name;
	int by;
} by_names[] = {
	{ "events", BY_EVENTS },
	{ "vmas", BY_VMAS },
	{ "latency", BY_LATENCY },
	{ "outcome=new", BY_NEW },
};

struct top_opts {
	const char *trace, *results;
	int by;
	uint32_t depth;   /* 0: default */
	int folded;
};

/* What one call site (or one pid's stack, before folding) adds up to. */
struct totals {
	uint64_t events, vmas, latency_ns, news;
};

struct site {
	int32_t pid;
	uint32_t stack_id;
	struct totals t;
};

struct stack {
	int32_t pid;
	uint32_t id, depth;
	uint64_t *ips;
};

struct row {
	char *key;
	struct totals t;
};

/* (pid, id) -> index + 1, open addressing */
struct idx_map {
	uint64_t *keys;
	uint32_t *vals;
	uint32_t n, cap;
};

struct top {
	struct top_opts o;
	struct sym_session *sym;
	struct live_map *live;
	struct outcome_set news;
	struct site *sites;
	uint32_t nsite, cap_site;
	struct idx_map site_idx, stack_idx;
	struct stack *stacks;
	uint32_t nstack, cap_stack;
	uint64_t nevents;
	/* for the simulator's outcomes, known only after the pass: the site
	 * of each event (NULL with --results, or when new is not shown) */
	uint32_t *ev_site;
	uint64_t cap_ev;
	int have_news;          /* the new column has numbers */
	char new_note[640];     /* where they come from, or why there are none */
};

static uint64_t pair_key(int32_t pid, uint32_t id)
{
	return ((uint64_t)(uint32_t)pid << 32 | id) + 1; /* never 0 */
}

static uint32_t slot_of(uint64_t key, uint32_t cap)
{
	return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

static uint32_t idx_get(const struct idx_map *m, uint64_t key)
{
	if (!m->cap)
		return 0;
	for (uint32_t i = slot_of(key, m->cap); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return m->vals[i];
	return 0;
}

static int idx_put(struct idx_map *m, uint64_t key, uint32_t val)
{
	uint32_t i;

	if (2 * (m->n + 1) > m->cap) {
		struct idx_map big = { .cap = m->cap ? 2 * m->cap : 256 };

		big.keys = calloc(big.cap, sizeof(*big.keys));
		big.vals = calloc(big.cap, sizeof(*big.vals));
		if (!big.keys || !big.vals) {
			free(big.keys);
			free(big.vals);
			return -1;
		}
		for (i = 0; i < m->cap; i++)
			if (m->keys[i])
				idx_put(&big, m->keys[i], m->vals[i]);
		free(m->keys);
		free(m->vals);
		*m = big;
	}
	for (i = slot_of(key, m->cap); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			break;
	if (!m->keys[i])
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
	return 0;
}

static void *grow(void *p, uint32_t *cap, uint32_t want, size_t size)
{
	uint32_t n = *cap ? *cap : 64;
	void *q;

	if (want <= *cap)
		return p;
	while (n < want)
		n *= 2;
	if (!(q = realloc(p, (size_t)n * size)))
		return NULL;
	*cap = n;
	return q;
}

static int add_stack(struct top *t, const struct vmt_stack *st)
{
	struct stack *s;

	if (idx_get(&t->stack_idx, pair_key(st->pid, st->id)))
		return 0;
	if (!(s = grow(t->stacks, &t->cap_stack, t->nstack + 1, sizeof(*s))))
		return -1;
	t->stacks = s;
	s = &t->stacks[t->nstack];
	s->pid = st->pid;
	s->id = st->id;
	s->depth = st->depth;
	if (!(s->ips = malloc((st->depth + 1) * sizeof(*s->ips))))
		return -1;
	memcpy(s->ips, st->ips, st->depth * sizeof(*s->ips));
	t->nstack++;
	return idx_put(&t->stack_idx, pair_key(st->pid, st->id), t->nstack);
}

static int add_event(struct top *t, const struct vmt_event *ev)
{
	uint64_t key = pair_key(ev->pid, ev->stack_id);
	uint32_t i = idx_get(&t->site_idx, key);
	struct site *s;

	if (!i) {
		if (!(s = grow(t->sites, &t->cap_site, t->nsite + 1, sizeof(*s))))
			return -1;
		t->sites = s;
		t->sites[t->nsite] = (struct site){ .pid = ev->pid, .stack_id = ev->stack_id };
		i = ++t->nsite;
		if (idx_put(&t->site_idx, key, i) < 0)
			return -1;
	}
	s = &t->sites[i - 1];
	s->t.events++;
	s->t.latency_ns += ev->latency_ns;
	s->t.news += outcome_set_has(&t->news, t->nevents);
	if (t->ev_site) {
		if (t->nevents == t->cap_ev) {
			uint32_t *p = realloc(t->ev_site, 2 * t->cap_ev * sizeof(*p));
			if (!p)
				return -1;
			t->ev_site = p;
			t->cap_ev *= 2;
		}
		t->ev_site[t->nevents] = i - 1;
	}
	t->nevents++;
	return live_event(t->live, ev, i - 1);
}

static int read_trace(struct top *t)
{
	struct vmt_reader *r = vmtrace_open(t->o.trace, VMT_ORDER_SEQ);
	struct vmt_record rec;
	int rc = 0, oom = 0;

	if (!r)
		return -1;
	if (!(t->live = live_new(vmt_reader_header(r)->host.page_size)))
		oom = 1;
	while (!oom && (rc = vmt_reader_next(r, &rec)) > 0) {
		switch (rec.type) {
		case VMT_REC_MODULE:
			oom = sym_add_module(t->sym, &rec.u.module) < 0;
			break;
		case VMT_REC_PROCESS:
			sym_add_process(t->sym, &rec.u.process);
			if (rec.u.process.image > 0)
				live_exec(t->live, rec.u.process.pid);
			break;
		case VMT_REC_STACK:
			oom = add_stack(t, &rec.u.stack) < 0;
			break;
		case VMT_REC_EVENT:
			oom = add_event(t, &rec.u.event) < 0;
			break;
		}
	}
	if (oom)
		fprintf(stderr, "vmtrace: %s: out of memory\n", t->o.trace);
	else if (rc < 0)
		/* a cut-off trace still has its complete chunks: report them */
		fprintf(stderr, "vmtrace: %s\n", vmt_reader_error(r));
	vmt_reader_close(r);
	return oom || (rc < 0 && rc != VMT_ETRUNCATED) ? -1 : 0;
}

/* "__mmap", "mmap64", "__GI___munmap": a system call's own wrapper */
static int is_syscall_wrapper(const char *func)
{
	char name[64];
	size_t n;

	if (!func)
		return 0;
	if (!strncmp(func, "__GI_", 5))
		func += 5;
	while (*func == '_')
		func++;
	n = strlen(func);
	if (n >= sizeof(name))
		return 0;
	memcpy(name, func, n + 1);
	if (n > 2 && !strcmp(name + n - 2, "64"))
		name[n - 2] = '\0';
	return vmt_sys_from_name(name) != VMT_SYS_NONE;
}

/* The frame whose caller matters: see the comment at the top. */
static uint32_t attribution_frame(const struct sym_frame *f, uint32_t depth)
{
	uint32_t i;

	for (i = 0; i < depth; i++)
		if (f[i].module && !sym_frame_is_system(&f[i]))
			return i;
	/* all in libc/ld.so: past the recorder's frames and the wrapper */
	for (i = 0; i < depth && f[i].module && strstr(f[i].module, "libvmrec"); i++)
		;
	if (i < depth && is_syscall_wrapper(f[i].func))
		i++;
	return i < depth ? i : depth - 1;
}

struct strbuf {
	char *s;
	size_t len, cap;
};

static int sb_add(struct strbuf *b, const char *str)
{
	size_t n = strlen(str);

	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 256;
		char *s;

		while (cap < b->len + n + 1)
			cap *= 2;
		if (!(s = realloc(b->s, cap)))
			return -1;
		b->s = s;
		b->cap = cap;
	}
	memcpy(b->s + b->len, str, n + 1);
	b->len += n;
	return 0;
}

static void frame_label(const struct sym_frame *f, int with_line, char *buf, size_t len)
{
	char name[512];
	const char *file = f->file ? strrchr(f->file, '/') : NULL;

	sym_frame_name(f, name, sizeof(name));
	if (with_line && f->file)
		snprintf(buf, len, "%s (%s:%u)", name, file ? file + 1 : f->file, f->line);
	else
		snprintf(buf, len, "%s", name);
}

/* The call-site key of one stack: "a (f.c:3) < b (f.c:9)" for the table,
 * "outer;...;inner" for --folded. */
static char *site_key(struct top *t, const struct stack *st)
{
	struct sym_frame *f = calloc(st->depth + 1, sizeof(*f));
	struct strbuf b = { 0 };
	char label[1024];
	uint32_t a, end, depth = t->o.depth;
	int fail = 0;

	if (!f)
		return NULL;
	if (!st->depth) {
		free(f);
		return strdup("[empty stack]");
	}
	for (uint32_t i = 0; i < st->depth; i++)
		sym_resolve(t->sym, st->pid, st->ips[i], i > 0, &f[i]);
	a = attribution_frame(f, st->depth);
	if (!depth)
		depth = t->o.folded ? UINT32_MAX : 1;
	end = depth > st->depth - a ? st->depth : a + depth;
	if (t->o.folded)
		for (uint32_t i = end; i-- > 0;) {
			frame_label(&f[i], 0, label, sizeof(label));
			fail |= sb_add(&b, label) || (i && sb_add(&b, ";"));
		}
	else
		for (uint32_t i = a; i < end; i++) {
			frame_label(&f[i], 1, label, sizeof(label));
			fail |= (i > a && sb_add(&b, " < ")) || sb_add(&b, label);
		}
	free(f);
	if (fail || !b.s) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

static uint64_t metric(const struct top *t, const struct totals *x)
{
	static const size_t off[] = {
		[BY_EVENTS] = offsetof(struct totals, events),
		[BY_VMAS] = offsetof(struct totals, vmas),
		[BY_LATENCY] = offsetof(struct totals, latency_ns),
		[BY_NEW] = offsetof(struct totals, news),
	};
	return *(const uint64_t *)((const char *)x + off[t->o.by]);
}

static const struct top *sort_top; /* qsort has no context argument */
static char **sort_keys;

static int by_key(const void *a, const void *b)
{
	return strcmp(sort_keys[*(const uint32_t *)a], sort_keys[*(const uint32_t *)b]);
}

static int by_metric(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	uint64_t mx = metric(sort_top, &x->t), my = metric(sort_top, &y->t);

	if (mx != my)
		return mx > my ? -1 : 1;
	return strcmp(x->key, y->key);
}

static void add_totals(struct totals *a, const struct totals *b)
{
	a->events += b->events;
	a->vmas += b->vmas;
	a->latency_ns += b->latency_ns;
	a->news += b->news;
}

/* Fold sites into rows keyed by call site, merged and ranked. */
static struct row *make_rows(struct top *t, uint32_t *nrow)
{
	uint32_t n = 0, ns = t->nsite;
	struct row *rows = calloc(ns + 1, sizeof(*rows));
	char **keys = calloc(ns + 1, sizeof(*keys));
	uint32_t *order = calloc(ns + 1, sizeof(*order));
	uint32_t *group = calloc(ns + 1, sizeof(*group));
	uint64_t *vmas = calloc(ns + 1, sizeof(*vmas));

	if (!rows || !keys || !order || !group || !vmas)
		goto fail;
	for (uint32_t i = 0; i < ns; i++) {
		const struct site *s = &t->sites[i];
		uint32_t k = s->stack_id ? idx_get(&t->stack_idx, pair_key(s->pid, s->stack_id)) : 0;

		keys[i] = k ? site_key(t, &t->stacks[k - 1])
			    : strdup(s->stack_id ? "[stack not in trace]" : "[no stack]");
		if (!keys[i])
			goto fail;
		order[i] = i;
	}
	sort_keys = keys;
	qsort(order, ns, sizeof(*order), by_key);
	for (uint32_t i = 0; i < ns; i++) {
		uint32_t s = order[i];

		if (!n || strcmp(rows[n - 1].key, keys[s])) {
			rows[n].key = keys[s];
			keys[s] = NULL;
			n++;
		}
		group[s] = n - 1;
		add_totals(&rows[n - 1].t, &t->sites[s].t);
	}
	live_count(t->live, group, ns, vmas);
	for (uint32_t i = 0; i < n; i++)
		rows[i].t.vmas = vmas[i];
	sort_top = t;
	qsort(rows, n, sizeof(*rows), by_metric);
	*nrow = n;
	goto out;
fail:
	for (uint32_t i = 0; rows && i < n; i++)
		free(rows[i].key);
	free(rows);
	rows = NULL;
	fprintf(stderr, "vmtrace: %s: out of memory\n", t->o.trace);
out:
	for (uint32_t i = 0; keys && i < ns; i++)
		free(keys[i]);
	free(keys);
	free(order);
	free(group);
	free(vmas);
	return rows;
}

static void print_rows(const struct top *t, const struct row *rows, uint32_t n)
{
	if (!t->o.folded)
		printf("# new: %s\n%8s %6s %12s %6s  %s\n", t->new_note, "events", "vmas",
		       "latency_us", "new", "call site");
	for (uint32_t i = 0; i < n; i++) {
		const struct totals *x = &rows[i].t;
		char news[24] = "-";

		if (!metric(t, x))
			continue;
		if (t->o.folded) {
			printf("%s %" PRIu64 "\n", rows[i].key, metric(t, x));
			continue;
		}
		if (t->have_news)
			snprintf(news, sizeof(news), "%" PRIu64, x->news);
		printf("%8" PRIu64 " %6" PRIu64 " %12.1f %6s  %s\n", x->events, x->vmas,
		       (double)x->latency_ns / 1000.0, news, rows[i].key);
	}
}

static int usage(FILE *f)
{
	fprintf(f, "usage: vmtrace top TRACE [--by events|vmas|latency|outcome=new] "
		   "[--depth N] [--folded] [--results R.json]\n");
	return f == stdout ? 0 : 2;
}

/* 0: fine; 1: wrong, and said why; -1: wrong, print the usage; 2: --help */
static int parse_args(int argc, char **argv, struct top_opts *o)
{
	static const struct option longopts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "depth", required_argument, NULL, 'd' },
		{ "folded", no_argument, NULL, 'f' },
		{ "results", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char *end;
	size_t i;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:d:fr:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			for (i = 0; i < sizeof(by_names) / sizeof(*by_names); i++)
				if (!strcmp(optarg, by_names[i].name))
					break;
			if (i == sizeof(by_names) / sizeof(*by_names)) {
				fprintf(stderr, "vmtrace top: --by %s: want events, vmas, latency or outcome=new\n", optarg);
				return 1;
			}
			o->by = by_names[i].by;
			break;
		case 'd': {
			unsigned long d = strtoul(optarg, &end, 10);

			if (*end || !*optarg || d < 1 || d > 4096) {
				fprintf(stderr, "vmtrace top: --depth %s: want a number from 1 to 4096\n", optarg);
				return 1;
			}
			o->depth = (uint32_t)d;
			break;
		}
		case 'f':
			o->folded = 1;
			break;
		case 'r':
			o->results = optarg;
			break;
		case 'h':
			return 2;
		default:
			return -1;
		}
	}
	if (optind + 1 != argc)
		return -1;
	o->trace = argv[optind];
	return 0;
}

/* Without --results: the outcomes of a replay in the simulator, charged to
 * the sites of the events.  0, or -1 with why in err. */
static int sim_news(struct top *t, char *err, size_t errlen)
{
	struct outcome_set set;

	if (t->nevents > TOP_SIM_MAX_EVENTS)
		snprintf(err, errlen, "not replayed in the simulator: %" PRIu64 " events, "
		         "over %u", t->nevents, TOP_SIM_MAX_EVENTS);
	if (t->nevents > TOP_SIM_MAX_EVENTS ||
	    top_sim_outcomes(t->o.trace, "new", &set, err, errlen) < 0) {
		snprintf(t->new_note, sizeof(t->new_note), "- (%s; give --results R.json "
		         "from vmreplay --per-event)", err);
		return -1;
	}
	for (uint64_t e = 0; e < t->nevents; e++)
		t->sites[t->ev_site[e]].t.news += outcome_set_has(&set, e);
	outcome_set_free(&set);
	snprintf(t->new_note, sizeof(t->new_note), "merged with nothing, replayed in the "
	         "simulator's host profile (--results R.json: another replay's)");
	t->have_news = 1;
	return 0;
}

int vmtrace_top_main(int argc, char **argv)
{
	struct top t = { 0 };
	struct row *rows = NULL;
	uint32_t nrow = 0;
	char err[512];
	int status = 1;

	switch (parse_args(argc, argv, &t.o)) {
	case 0:
		break;
	case 1:
		return 2;
	case 2:
		return usage(stdout);
	default:
		return usage(stderr);
	}
	if (t.o.results) {
		if (outcome_set_load(&t.news, t.o.results, "new", err, sizeof(err)) < 0) {
			fprintf(stderr, "vmtrace top: %s\n", err);
			return 1;
		}
		t.have_news = 1;
		snprintf(t.new_note, sizeof(t.new_note), "merged with nothing in %s",
		         t.o.results);
	} else if (!t.o.folded || t.o.by == BY_NEW) {
		if (!(t.ev_site = malloc((t.cap_ev = 1024) * sizeof(*t.ev_site)))) {
			fprintf(stderr, "vmtrace: out of memory\n");
			return 1;
		}
	}
	if (!(t.sym = sym_new(t.o.trace)))
		fprintf(stderr, "vmtrace: out of memory\n");
	else if (read_trace(&t) == 0) {
		if (t.ev_site && sim_news(&t, err, sizeof(err)) < 0 && t.o.by == BY_NEW) {
			fprintf(stderr, "vmtrace top: --by outcome=new: %s; give --results R.json "
			        "(vmreplay --per-event)\n", err);
			goto out;
		}
		if (t.nstack == 0 && t.nevents)
			fprintf(stderr, "vmtrace: note: %s has no stacks (record with vmrec --stacks)\n",
				t.o.trace);
		if ((rows = make_rows(&t, &nrow))) {
			print_rows(&t, rows, nrow);
			status = fflush(stdout) ? 1 : 0;
		}
	}
out:
	for (uint32_t i = 0; rows && i < nrow; i++)
		free(rows[i].key);
	free(rows);
	for (uint32_t i = 0; i < t.nstack; i++)
		free(t.stacks[i].ips);
	free(t.stacks);
	free(t.sites);
	free(t.ev_site);
	free(t.site_idx.keys);
	free(t.site_idx.vals);
	free(t.stack_idx.keys);
	free(t.stack_idx.vals);
	live_free(t.live);
	outcome_set_free(&t.news);
	sym_close(t.sym);
	return status;
}
