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
#include "lib/pid_id_map.h"
#include "lib/stack_map.h"
#include "lib/symbolize.h"
#include "lib/sysfmt.h"
#include "analysis/vmtrace.h"
#include "vmt_check.h"

#define STRACE_COLUMN 40  /* strace's -a default: where " = " goes */

struct dump_opts {
	int latency;  /* -T */
	int stamps;   /* number of -t */
	int stacks;   /* -k */
};

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

/* str: execve's file name and ARGV record, or NULL. */
static void print_event(FILE *out, const struct dump_opts *o, const struct vmt_event *ev,
                        uint64_t wall_ns, const struct sysfmt_strings *str)
{
	char line[32768];   /* a path of 4095 bytes and argv, escaped */
	int n = snprintf(line, sizeof(line), "%-5d ", ev->tid);
	if (o->stamps)
		n += put_stamp(line + n, sizeof(line) - (size_t)n, o->stamps, wall_ns);
	size_t len = (size_t)n + sysfmt_args_with(line + n, sizeof(line) - (size_t)n, ev, str);
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

/* An ARGV record copied whole (one allocation), to wait for its event. */
struct kept_argv {
	struct vmt_argv a;
	struct vmt_arg args[];
};

static struct kept_argv *argv_copy(const struct vmt_argv *a)
{
	size_t text = 0;
	for (uint32_t i = 0; i < a->argc; i++)
		text += a->args[i].str ? strlen(a->args[i].str) + 1 : 0;
	struct kept_argv *k = malloc(sizeof(*k) + a->argc * sizeof(k->args[0]) + text);
	if (!k)
		return NULL;
	char *p = (char *)(k->args + a->argc);
	k->a = *a;
	k->a.args = k->args;
	for (uint32_t i = 0; i < a->argc; i++) {
		k->args[i] = a->args[i];
		if (a->args[i].str) {
			k->args[i].str = p;
			p = stpcpy(p, a->args[i].str) + 1;
		}
	}
	return k;
}

/* ARGV records by (pid, seq): the id is the seq folded into 32 bits
 * (never 0), the full seq is compared on the way out. */
static uint32_t argv_id(uint64_t seq)
{
	return (uint32_t)(seq % UINT32_MAX) + 1;
}

static const struct vmt_argv *argv_get(const struct pid_id_map *m, const struct vmt_event *ev)
{
	const struct kept_argv *k = pid_id_map_get(m, ev->pid, argv_id(ev->seq));
	return k && k->a.seq == ev->seq ? &k->a : NULL;
}

/* A RANGES record, kept until its event (right after it in its writer's
 * order; a few other records may come between in seq order). */
struct kept_ranges {
	struct vmt_ranges r;
	struct vmt_range ranges[];
};

#define RANGES_SLOTS 64

static struct kept_ranges *ranges_copy(const struct vmt_ranges *r)
{
	size_t name = r->name ? strlen(r->name) + 1 : 0;
	struct kept_ranges *k = malloc(sizeof(*k) + r->n * sizeof(k->ranges[0]) + name);
	if (!k)
		return NULL;
	k->r = *r;
	if (r->n)
		memcpy(k->ranges, r->ranges, r->n * sizeof(k->ranges[0]));
	k->r.ranges = k->ranges;
	if (r->name)
		k->r.name = memcpy((char *)(k->ranges + r->n), r->name, name);
	return k;
}

static const struct vmt_ranges *ranges_get(const struct pid_id_map *m, const struct vmt_event *ev)
{
	const struct kept_ranges *k = pid_id_map_get(m, ev->pid, (uint32_t)(ev->seq % RANGES_SLOTS) + 1);
	return k && k->r.seq == ev->seq ? &k->r : NULL;
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
	struct stack_map stacks = { 0 };
	struct pid_id_map files = { 0 };   /* FILE paths, for execve's */
	struct pid_id_map argvs = { 0 };   /* ARGV records, for the same */
	struct pid_id_map ranges = { 0 };  /* RANGES records, for their events */
	struct vmt_record rec;
	/* the trace rules, as check applies them: the first broken one is
	 * said after everything that decodes is printed */
	const struct vmt_header *h = vmt_reader_header(r);
	struct vmt_check *ck = vmt_check_new(h);
	char problem[300] = "";
	uint64_t problem_at = 0;
	if (!ck)
		snprintf(problem, sizeof(problem), "out of memory");
	else if (!vmt_check_version(h))
		snprintf(problem, sizeof(problem), "header of another format version");
	while ((ret = vmt_reader_next(r, &rec)) > 0) {
		const char *bad = problem[0] ? NULL : vmt_check_record(ck, &rec);
		if (bad) {
			snprintf(problem, sizeof(problem), "%s", bad);
			problem_at = vmt_check_records(ck);
		}
		if (!have_t0 && (rec.type == VMT_REC_PROCESS || rec.type == VMT_REC_EVENT)) {
			t0 = rec.type == VMT_REC_PROCESS ? rec.u.process.time_ns : rec.u.event.time_ns;
			have_t0 = 1;
		}
		if (rec.type == VMT_REC_STACK && o.stacks) {
			if (stack_map_put(&stacks, &rec.u.stack) < 0) {
				fprintf(stderr, "vmtrace: %s: out of memory\n", path);
				status = 1;
				break;
			}
		}
		if (rec.type == VMT_REC_FILE) {
			char *copy = strdup(rec.u.file.path ? rec.u.file.path : "");
			if (!copy || pid_id_map_put(&files, rec.u.file.pid, rec.u.file.id, copy, free) < 0) {
				free(copy);
				fprintf(stderr, "vmtrace: %s: out of memory\n", path);
				status = 1;
				break;
			}
		}
		if (rec.type == VMT_REC_ARGV) {
			struct kept_argv *k = argv_copy(&rec.u.argv);
			if (!k || pid_id_map_put(&argvs, rec.u.argv.pid, argv_id(rec.u.argv.seq), k, free) < 0) {
				free(k);
				fprintf(stderr, "vmtrace: %s: out of memory\n", path);
				status = 1;
				break;
			}
		}
		if (rec.type == VMT_REC_RANGES) {
			struct kept_ranges *k = ranges_copy(&rec.u.ranges);
			if (!k || pid_id_map_put(&ranges, rec.u.ranges.pid,
			                         (uint32_t)(rec.u.ranges.seq % RANGES_SLOTS) + 1, k, free) < 0) {
				free(k);
				fprintf(stderr, "vmtrace: %s: out of memory\n", path);
				status = 1;
				break;
			}
		}
		if (rec.type != VMT_REC_EVENT)
			continue;
		const struct vmt_event *ev = &rec.u.event;
		struct sysfmt_strings str = { 0 };
		if (ev->sys == VMT_SYS_EXECVE || ev->sys == VMT_SYS_EXECVEAT)
			str = (struct sysfmt_strings){ pid_id_map_get(&files, ev->pid, ev->file_id),
			                               argv_get(&argvs, ev), NULL };
		else if (vmt_sys_ranges(ev->sys))
			str.ranges = ranges_get(&ranges, ev);
		print_event(stdout, &o, ev, start + (ev->time_ns - t0), &str);
		if (o.stacks && ev->stack_id) {
			const struct stack_slot *s = stack_map_get(&stacks, ev->pid, ev->stack_id);
			if (s && sym)
				sym_print_stack(sym, stdout, ev->pid, s->ips, s->depth);
		}
	}
	if (!problem[0] && ret == 0 && ck) {
		const char *bad = vmt_check_end(ck);
		if (bad)
			snprintf(problem, sizeof(problem), "%s", bad);
	}
	if (problem[0]) {
		fflush(stdout);
		if (problem_at)
			fprintf(stderr, "vmtrace: %s: bad: %s (record %" PRIu64 ")\n", path, problem, problem_at);
		else
			fprintf(stderr, "vmtrace: %s: bad: %s\n", path, problem);
		status = 1;
	}
	if (ret < 0) {
		fflush(stdout);
		fprintf(stderr, "vmtrace: %s\n", vmt_reader_error(r));
		status = 1;
	}
	vmt_check_free(ck);
	stack_map_free(&stacks);
	pid_id_map_free(&files, free);
	pid_id_map_free(&argvs, free);
	pid_id_map_free(&ranges, free);
	if (sym)
		sym_close(sym);
	vmt_reader_close(r);
	if (fflush(stdout) != 0) {
		perror("vmtrace: stdout");
		status = 1;
	}
	return status;
}
