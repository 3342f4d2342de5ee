/* vmtrace dump: every event as `strace -f -o FILE` writes it.
 *
 * Timestamps: events carry CLOCK_MONOTONIC; the header carries the wall
 * clock at the start.  The wall time of an event is
 *   start_realtime_ns + (time_ns - t0)
 * where t0 is the time_ns of the first process or event record in seq
 * order (the recorder writes the header as that first process starts). */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "analysis/symbolize.h"
#include "analysis/sysfmt.h"
#include "analysis/vmtrace.h"

#define STRACE_COLUMN 40  /* strace's -a default: where " = " goes */

struct dump_opts {
	int latency;  /* -T */
	int stamps;   /* number of -t */
	int stacks;   /* -k */
};

/* Stacks by (pid, id), copied out of the reader's records. */
struct stack_entry {
	int32_t pid;
	uint32_t id, depth;
	uint64_t *ips;
};

struct stack_table {
	struct stack_entry *slots;
	size_t cap, used;
};

static size_t stack_hash(int32_t pid, uint32_t id, size_t cap)
{
	uint64_t h = ((uint64_t)(uint32_t)pid << 32 | id) * 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 17) & (cap - 1);
}

static struct stack_entry *stack_slot(struct stack_table *t, int32_t pid, uint32_t id)
{
	size_t i = stack_hash(pid, id, t->cap);
	while (t->slots[i].id && !(t->slots[i].pid == pid && t->slots[i].id == id))
		i = (i + 1) & (t->cap - 1);
	return &t->slots[i];
}

static int stack_put(struct stack_table *t, const struct vmt_stack *s)
{
	if ((t->used + 1) * 2 > t->cap) {
		struct stack_table bigger = { calloc(t->cap ? t->cap * 2 : 256, sizeof(struct stack_entry)),
		                              t->cap ? t->cap * 2 : 256, 0 };
		if (!bigger.slots)
			return -1;
		for (size_t i = 0; i < t->cap; i++)
			if (t->slots[i].id) {
				*stack_slot(&bigger, t->slots[i].pid, t->slots[i].id) = t->slots[i];
				bigger.used++;
			}
		free(t->slots);
		*t = bigger;
	}
	struct stack_entry *e = stack_slot(t, s->pid, s->id);
	if (e->id)
		free(e->ips);
	else
		t->used++;
	e->pid = s->pid;
	e->id = s->id;
	e->depth = s->depth;
	e->ips = malloc((s->depth ? s->depth : 1) * sizeof(uint64_t));
	if (!e->ips)
		return -1;
	memcpy(e->ips, s->ips, s->depth * sizeof(uint64_t));
	return 0;
}

static const struct stack_entry *stack_get(const struct stack_table *t, int32_t pid, uint32_t id)
{
	return t->cap ? stack_slot((struct stack_table *)t, pid, id) : NULL;
}

static void stack_free(struct stack_table *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slots[i].ips);
	free(t->slots);
}

static int put_stamp(char *buf, size_t size, int stamps, uint64_t wall_ns)
{
	time_t sec = (time_t)(wall_ns / 1000000000u);
	long usec = (long)(wall_ns % 1000000000u / 1000u);
	if (stamps >= 3)
		return snprintf(buf, size, "%lld.%06ld ", (long long)sec, usec);
	struct tm tm;
	localtime_r(&sec, &tm);
	char hms[16];
	strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
	if (stamps == 2)
		return snprintf(buf, size, "%s.%06ld ", hms, usec);
	return snprintf(buf, size, "%s ", hms);
}

static void print_event(FILE *out, const struct dump_opts *o, const struct vmt_event *ev,
                        uint64_t wall_ns)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), "%-5d ", ev->tid);
	if (o->stamps)
		n += put_stamp(line + n, sizeof(line) - (size_t)n, o->stamps, wall_ns);
	size_t len = (size_t)n + sysfmt_args(line + n, sizeof(line) - (size_t)n, ev);
	if (len >= sizeof(line))
		len = sizeof(line) - 1;
	fputs(line, out);
	if (len < STRACE_COLUMN)
		fprintf(out, "%*s", (int)(STRACE_COLUMN - len), "");
	else
		fputc(' ', out);
	sysfmt_result(line, sizeof(line), ev);
	fprintf(out, "= %s", line);
	if (o->latency && strcmp(line, "?") != 0)
		fprintf(out, " <%" PRIu64 ".%06" PRIu64 ">", ev->latency_ns / 1000000000u,
		        ev->latency_ns % 1000000000u / 1000u);
	fputc('\n', out);
}

static void dump_usage(void)
{
	fprintf(stderr, "usage: vmtrace dump [-T] [-t|-tt|-ttt] [-k] TRACE\n");
}

int vmtrace_dump_main(int argc, char **argv)
{
	struct dump_opts o = { 0 };
	int c;
	optind = 1;
	while ((c = getopt(argc, argv, "Ttk")) != -1) {
		switch (c) {
		case 'T': o.latency = 1; break;
		case 't': o.stamps++; break;
		case 'k': o.stacks = 1; break;
		default: dump_usage(); return 2;
		}
	}
	if (optind + 1 != argc) {
		dump_usage();
		return 2;
	}
	const char *path = argv[optind];
	struct vmt_reader *r = vmtrace_open(path, VMT_ORDER_SEQ);
	if (!r)
		return 1;

	struct sym_session *sym = NULL;
	if (o.stacks) {
		char err[256] = "";
		sym = sym_open(path, err, sizeof(err));
		if (!sym)
			fprintf(stderr, "vmtrace: %s: no symbols: %s\n", path, err);
	}

	uint64_t start = vmt_reader_header(r)->start_realtime_ns;
	uint64_t t0 = 0;
	int have_t0 = 0, ret, status = 0;
	struct stack_table stacks = { 0 };
	struct vmt_record rec;
	while ((ret = vmt_reader_next(r, &rec)) > 0) {
		if (!have_t0 && (rec.type == VMT_REC_PROCESS || rec.type == VMT_REC_EVENT)) {
			t0 = rec.type == VMT_REC_PROCESS ? rec.u.process.time_ns : rec.u.event.time_ns;
			have_t0 = 1;
		}
		if (rec.type == VMT_REC_STACK && o.stacks) {
			if (stack_put(&stacks, &rec.u.stack) < 0) {
				fprintf(stderr, "vmtrace: %s: out of memory\n", path);
				status = 1;
				break;
			}
		}
		if (rec.type != VMT_REC_EVENT)
			continue;
		const struct vmt_event *ev = &rec.u.event;
		print_event(stdout, &o, ev, start + (ev->time_ns - t0));
		if (o.stacks && ev->stack_id) {
			const struct stack_entry *s = stack_get(&stacks, ev->pid, ev->stack_id);
			if (s && s->id && sym)
				sym_print_stack(sym, stdout, ev->pid, s->ips, s->depth);
		}
	}
	if (ret < 0) {
		fflush(stdout);
		fprintf(stderr, "vmtrace: %s\n", vmt_reader_error(r));
		status = 1;
	}
	stack_free(&stacks);
	if (sym)
		sym_close(sym);
	vmt_reader_close(r);
	if (fflush(stdout) != 0) {
		perror("vmtrace: stdout");
		status = 1;
	}
	return status;
}
