/* vmtrace import-strace: an `strace -f -ttt -T -e trace=%memory,%process`
 * log as a trace.
 *
 * Order: a call's seq is the place of the line where it starts, its
 * seq_end the place after the line where it completes (a call split into
 * "<unfinished ...>" and "<... resumed>" spans the lines between), so the
 * trace library orders overlapping calls by what they did, as it does a
 * recording's (docs/trace-format.md, "Order").  time_ns
 * is the call's entry timestamp minus the log's first timestamp, and the
 * header's start_realtime_ns is that first timestamp (-ttt: since the
 * epoch; -t/-tt: since midnight; none: time_ns = 1 us per call).
 *
 * Processes: the log shows thread ids.  A first pass learns from clone,
 * clone3, fork and vfork results which ids are threads of which process;
 * the second writes the records.  A child often runs before its parent's
 * fork returns ("clone(... <unfinished ...>", the child's calls, then
 * "<... clone resumed> = PID"); its calls need the fork before them (the
 * trace rules, docs/trace-format.md), so the fork is written where the
 * child's first record is, and its completion line then writes nothing.  A process record (image 0) is written
 * before a process's first event, another (image + 1) after each
 * successful execve.  Calls the trace format has no number for are
 * skipped and counted.  A log without a pid column (strace without -f,
 * or -f without -o before the first clone) is taken as one process, pid 1. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analysis/vmtrace.h"
#include "analysis/vmtrace_files.h"
#include "analysis/vmtrace_strace.h"
#include "lib/input.h"

/* The process of a log written without -f (no pid column). */
#define LOG_WITHOUT_PIDS 1

/* A call whose line ended in "<unfinished ...>". */
struct pending {
	int32_t tid;
	char name[32];
	char *args;
	uint64_t time_ns, seq;
	int has_time;
};

/* One thread or process id seen in the log. */
struct task {
	int32_t tid;
	int32_t tgid;         /* its process */
	int32_t parent;       /* the thread that created it, 0 if unknown */
	int is_thread;
	int announced;        /* process record written (processes only) */
	uint32_t image;
	char exe[256];
	char **files;         /* file record paths; id = index + 1 */
	uint32_t nfiles;
	/* the first fork that returned it (pass 1): written early in pass 2
	 * when the child's records come before its completion line */
	int has_birth, born;
	unsigned long birth_line, early_line;
	struct vmt_event birth;
	int32_t birth_tid;
	int birth_has_time, birth_has_latency;
	uint64_t birth_time_ns, birth_latency_ns;
	uint64_t birth_seq, birth_seq_end;   /* the fork's interval */
	uint64_t first_seq;   /* its first recorded call's (pass 1) */
};

struct import {
	const char *log_path;
	FILE *log;
	unsigned long lineno;
	struct pending *pend;
	size_t npend;
	struct task *tasks;
	size_t ntasks, task_cap;
	/* second pass */
	struct vmt_writer *w;
	uint64_t seq;             /* calls started so far: the next start's seq is seq + 1 */
	uint64_t last_written;    /* the largest seq written: a smaller one starts a chunk */
	uint64_t first_ns, calls_without_time;
	int have_first;
	uint64_t events, unknown, exits, signals;
	char first_exe[256], cmdline[512];
};

/* A complete call: what both passes consume. */
struct call {
	int32_t tid;
	const char *name;
	char *args;
	const char *result;
	int has_time, has_latency;
	uint64_t time_ns, latency_ns;
	uint64_t seq, seq_end;    /* its interval (above) */
};

typedef int call_fn(struct import *im, struct call *c);

static struct task *task_find(struct import *im, int32_t tid)
{
	for (size_t i = im->ntasks; i-- > 0;)
		if (im->tasks[i].tid == tid)
			return &im->tasks[i];
	return NULL;
}

static struct task *task_get(struct import *im, int32_t tid)
{
	struct task *t = task_find(im, tid);
	if (t)
		return t;
	if (im->ntasks == im->task_cap) {
		size_t cap = im->task_cap ? im->task_cap * 2 : 16;
		struct task *v = realloc(im->tasks, cap * sizeof(*v));
		if (!v)
			return NULL;
		im->tasks = v;
		im->task_cap = cap;
	}
	t = &im->tasks[im->ntasks++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->tgid = tid;
	return t;
}

static int pending_put(struct import *im, int32_t tid, const struct strace_line *l)
{
	struct pending *v = realloc(im->pend, (im->npend + 1) * sizeof(*v));
	if (!v)
		return -1;
	im->pend = v;
	struct pending *p = &v[im->npend];
	p->args = strdup(l->args);
	if (!p->args)
		return -1;
	im->npend++;
	p->tid = tid;
	memcpy(p->name, l->name, sizeof(p->name));
	p->seq = ++im->seq;
	p->time_ns = l->time_ns;
	p->has_time = l->has_time;
	return 0;
}

static struct pending *pending_take(struct import *im, int32_t tid, const char *name)
{
	for (size_t i = 0; i < im->npend; i++)
		if (im->pend[i].tid == tid && !strcmp(im->pend[i].name, name)) {
			struct pending *p = malloc(sizeof(*p));
			if (p)
				*p = im->pend[i];
			im->pend[i] = im->pend[--im->npend];
			return p;
		}
	return NULL;
}

static void pending_clear(struct import *im)
{
	for (size_t i = 0; i < im->npend; i++)
		free(im->pend[i].args);
	im->npend = 0;
}

static int fail(struct import *im, const char *what)
{
	fprintf(stderr, "vmtrace: %s:%lu: %s\n", im->log_path, im->lineno, what);
	return -1;
}

/* Read the whole log once, calling fn for each completed call. */
static int read_log(struct import *im, call_fn *fn)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;
	rewind(im->log);
	im->lineno = 0;
	im->seq = 0;
	pending_clear(im);
	while (ret == 0 && getline(&line, &cap, im->log) > 0) {
		struct strace_line l;
		im->lineno++;
		if (strace_parse_line(line, &l) < 0) {
			ret = fail(im, "not a line of strace output");
			break;
		}
		if (l.pid == 0)
			l.pid = LOG_WITHOUT_PIDS;
		struct call c = { l.pid, l.name, l.args, l.result, l.has_time, l.has_latency,
		                  l.time_ns, l.latency_ns, 0, 0 };
		switch (l.kind) {
		case STRACE_CALL:
			c.seq = ++im->seq;
			c.seq_end = c.seq + 1;
			ret = fn(im, &c);
			break;
		case STRACE_UNFINISHED:
			if (pending_put(im, l.pid, &l) < 0)
				ret = fail(im, "out of memory");
			break;
		case STRACE_RESUMED: {
			struct pending *p = pending_take(im, l.pid, l.name);
			if (!p) {
				ret = fail(im, "resumed call that never started");
				break;
			}
			size_t n = strlen(p->args) + strlen(l.args) + 1;
			char *args = malloc(n);
			if (!args) {
				ret = fail(im, "out of memory");
			} else {
				snprintf(args, n, "%s%s", p->args, l.args);
				c.args = args;
				c.has_time = p->has_time;
				c.time_ns = p->time_ns;
				c.seq = p->seq;
				c.seq_end = im->seq + 1;
				ret = fn(im, &c);
				free(args);
			}
			free(p->args);
			free(p);
			break;
		}
		case STRACE_EXITED:
			im->exits++;
			break;
		case STRACE_SIGNAL:
			im->signals++;
			break;
		}
	}
	free(line);
	if (ret == 0 && ferror(im->log)) {
		fprintf(stderr, "vmtrace: %s: read error\n", im->log_path);
		ret = -1;
	}
	return ret;
}

#define CLONE_THREAD 0x00010000ull

static int is_creation(int sys)
{
	return sys == VMT_SYS_CLONE || sys == VMT_SYS_CLONE3 || sys == VMT_SYS_FORK ||
	       sys == VMT_SYS_VFORK;
}

#define CLONE_VFORK 0x00004000ull

/* A creation the trace rules want before the child's records: a new
 * process whose parent does not wait for it (not vfork, traces/vmt_check.c) */
static int is_fork(const struct vmt_event *ev)
{
	return !ev->err && ev->result > 0 && ev->result <= INT32_MAX &&
	       (ev->sys == VMT_SYS_FORK ||
	        ((ev->sys == VMT_SYS_CLONE || ev->sys == VMT_SYS_CLONE3) &&
	         !(ev->flags & VMT_EV_THREAD) && !(ev->args[0] & CLONE_VFORK)));
}

/* Pass 1: who created whom, and the first program's name. */
static int learn_tasks(struct import *im, struct call *c)
{
	struct vmt_event ev = { 0 };
	struct strace_strings exec = { 0 };
	char *args = strdup(c->args);
	if (!args)
		return fail(im, "out of memory");
	int ret = strace_decode_call(c->name, args, c->result, &ev, &exec);
	free(args);
	strace_strings_free(&exec);
	if (ret == -2)
		return fail(im, "arguments or result that do not parse");
	if (ret < 0)
		return 0;
	struct task *self = task_get(im, c->tid);
	if (!self)
		return fail(im, "out of memory");
	if (!self->first_seq)
		self->first_seq = c->seq;
	if (exec.exe[0] && !im->first_exe[0] && !ev.err) {
		snprintf(im->first_exe, sizeof(im->first_exe), "%s", exec.exe);
		snprintf(im->cmdline, sizeof(im->cmdline), "%s", exec.cmdline);
	}
	if (is_creation(ev.sys) && !ev.err && ev.result > 0) {
		struct task *t = task_get(im, (int32_t)ev.result);
		if (!t)
			return fail(im, "out of memory");
		t->parent = c->tid;
		t->is_thread = (ev.flags & VMT_EV_THREAD) != 0;
		/* one id, two processes: the trace format names a process by its pid */
		if (t->first_seq && t->first_seq < c->seq) {
			char msg[96];
			snprintf(msg, sizeof(msg), "pid %" PRId64 " made calls before the fork that "
			         "returned it began (a reused pid)", ev.result);
			return fail(im, msg);
		}
		if (is_fork(&ev) && !t->has_birth) {
			t->has_birth = 1;
			t->birth_line = im->lineno;
			t->birth = ev;
			t->birth_tid = c->tid;
			t->birth_has_time = c->has_time;
			t->birth_time_ns = c->time_ns;
			t->birth_has_latency = c->has_latency;
			t->birth_latency_ns = c->latency_ns;
			t->birth_seq = c->seq;
			t->birth_seq_end = c->seq_end;
		}
	}
	return 0;
}

static int32_t tgid_of(struct import *im, int32_t tid)
{
	/* a thread's creator may itself be a thread: follow to the process */
	for (int depth = 0; depth < 64; depth++) {
		struct task *t = task_find(im, tid);
		if (!t || !t->is_thread || !t->parent)
			return tid;
		tid = t->parent;
	}
	return tid;
}

static int write_rec(struct import *im, const struct vmt_record *rec)
{
	/* a call written when it completes may have started before the last
	 * one written: a chunk's records never go back in seq */
	uint64_t seq = rec->type == VMT_REC_EVENT ? rec->u.event.seq
	             : rec->type == VMT_REC_PROCESS ? rec->u.process.seq : 0;
	if (seq && seq < im->last_written && vmt_writer_flush(im->w) < 0)
		return fail(im, vmt_writer_error(im->w));
	if (seq > im->last_written)
		im->last_written = seq;
	int err = vmt_write(im->w, rec);
	if (err < 0) {
		fprintf(stderr, "vmtrace: %s\n", vmt_writer_error(im->w));
		return -1;
	}
	return 0;
}

static int announce(struct import *im, struct task *proc, int32_t ppid, uint64_t seq, uint64_t time_ns)
{
	struct vmt_record rec = { .type = VMT_REC_PROCESS };
	rec.u.process = (struct vmt_process){
		.seq = seq, .time_ns = time_ns, .pid = proc->tid, .ppid = ppid,
		.image = proc->image, .exe = proc->exe, .cmdline = im->cmdline,
	};
	proc->announced = 1;
	return write_rec(im, &rec);
}

/* The process record of tid's process, if it has none yet, at seq. */
static int ensure_process(struct import *im, int32_t tid, uint64_t seq, uint64_t time_ns)
{
	int32_t pid = tgid_of(im, tid);
	struct task *proc = task_get(im, pid);
	if (!proc)
		return fail(im, "out of memory");
	if (proc->announced)
		return 0;
	struct task *self = task_find(im, pid);
	int32_t ppid = self && self->parent ? tgid_of(im, self->parent) : 0;
	struct task *parent = ppid ? task_find(im, ppid) : NULL;
	const char *exe = parent && parent->exe[0] ? parent->exe : im->first_exe;
	snprintf(proc->exe, sizeof(proc->exe), "%s", exe);
	/* the first process starts the trace: the header's start time */
	return announce(im, proc, ppid, seq, im->last_written == 0 ? 0 : time_ns);
}

static uint64_t call_time(struct import *im, const struct call *c)
{
	if (!c->has_time)
		return ++im->calls_without_time * 1000u;
	return c->time_ns - im->first_ns;
}

/* The id of the file record for path in process pid, written if new. */
static uint32_t file_id(struct import *im, int32_t pid, const char *path)
{
	struct task *proc = task_get(im, pid);
	if (!proc)
		return 0;
	for (uint32_t i = 0; i < proc->nfiles; i++)
		if (!strcmp(proc->files[i], path))
			return i + 1;
	char **v = realloc(proc->files, (proc->nfiles + 1) * sizeof(*v));
	if (!v)
		return 0;
	proc->files = v;
	if (!(v[proc->nfiles] = strdup(path)))
		return 0;
	uint32_t id = ++proc->nfiles;
	/* strace -y tells the path only: no device, inode or size */
	struct vmt_record rec = { .type = VMT_REC_FILE };
	rec.u.file = (struct vmt_file){ .id = id, .pid = pid, .path = path };
	return write_rec(im, &rec) < 0 ? 0 : id;
}

static int write_decoded(struct import *im, const struct call *c, struct vmt_event ev,
                         const struct strace_strings *exec);

/* Before a record of tid's process that started at seq: the fork that
 * made it, if its line has not come yet but the fork had started (the
 * child ran first).  A fork that starts later returned a reused pid. */
static int birth_first(struct import *im, int32_t tid, uint64_t seq)
{
	struct task *p = task_find(im, tgid_of(im, tid));
	if (!p || !p->has_birth || p->born || p->birth_line <= im->lineno || p->birth_seq > seq)
		return 0;
	p->born = 1;
	p->early_line = p->birth_line;
	struct call c = { .tid = p->birth_tid, .name = "", .args = "", .result = "",
	                  .has_time = p->birth_has_time, .has_latency = p->birth_has_latency,
	                  .time_ns = p->birth_time_ns, .latency_ns = p->birth_latency_ns,
	                  .seq = p->birth_seq, .seq_end = p->birth_seq_end };
	struct strace_strings none = { 0 };
	return write_decoded(im, &c, p->birth, &none);
}

/* Pass 2: the records of one decoded call. */
static int write_decoded(struct import *im, const struct call *c, struct vmt_event ev,
                         const struct strace_strings *exec)
{
	if (is_creation(ev.sys) && !ev.err && ev.result > 0) {
		struct task *child = task_find(im, (int32_t)ev.result);
		if (child && child->early_line == im->lineno && child->early_line)
			return 0;   /* written before the child's first record */
		if (child && is_fork(&ev))
			child->born = 1;
	}
	if (birth_first(im, c->tid, c->seq) < 0)
		return -1;
	uint64_t t = call_time(im, c);
	if (ensure_process(im, c->tid, c->seq, t) < 0)
		return -1;
	ev.seq = c->seq;
	ev.seq_end = c->seq_end;
	ev.time_ns = t;
	ev.latency_ns = c->has_latency ? c->latency_ns : 0;
	ev.tid = c->tid;
	ev.pid = tgid_of(im, c->tid);
	/* mmap's file as strace -y showed it; execve's file name as given */
	const char *file = exec->fd_path[0] ? exec->fd_path
	                 : exec->exe_given ? exec->exe : NULL;
	if (file && !(ev.file_id = file_id(im, ev.pid, file)))
		return fail(im, "out of memory");
	struct vmt_record rec = { .type = VMT_REC_ARGV };
	if (exec->has_argv) {
		rec.u.argv = exec->argv;
		rec.u.argv.seq = ev.seq;
		rec.u.argv.pid = ev.pid;
		if (write_rec(im, &rec) < 0)
			return -1;
	}
	if (exec->has_ranges) {   /* what its memory held, right before it */
		rec = (struct vmt_record){ .type = VMT_REC_RANGES };
		rec.u.ranges = exec->ranges;
		rec.u.ranges.seq = ev.seq;
		rec.u.ranges.pid = ev.pid;
		if (write_rec(im, &rec) < 0)
			return -1;
	}
	rec = (struct vmt_record){ .type = VMT_REC_EVENT };
	rec.u.event = ev;
	if (write_rec(im, &rec) < 0)
		return -1;
	im->events++;
	if (exec->exe[0] && !ev.err && !(ev.flags & VMT_EV_NORETURN)) {
		struct task *proc = task_get(im, ev.pid);
		if (!proc)
			return fail(im, "out of memory");
		proc->image++;
		snprintf(proc->exe, sizeof(proc->exe), "%s", exec->exe);
		struct task *self = task_find(im, ev.pid);
		return announce(im, proc, self && self->parent ? tgid_of(im, self->parent) : 0,
		                c->seq, t + ev.latency_ns);
	}
	/* at the call's seq, after its event: the new image's and the child's
	 * calls may have started before this one's line completed */
	if (is_creation(ev.sys) && !ev.err && ev.result > 0 && !(ev.flags & VMT_EV_THREAD))
		return ensure_process(im, (int32_t)ev.result, c->seq, t + ev.latency_ns);
	return 0;
}

static int write_call(struct import *im, struct call *c)
{
	struct vmt_event ev = { 0 };
	struct strace_strings exec = { 0 };
	int ret = strace_decode_call(c->name, c->args, c->result, &ev, &exec);
	if (ret == -2) {
		ret = fail(im, "arguments or result that do not parse");
	} else if (ret < 0) {
		im->unknown++;
		ret = 0;
	} else {
		ret = write_decoded(im, c, ev, &exec);
	}
	strace_strings_free(&exec);
	return ret;
}

/* The earliest entry time of the log: the header's start, time 0. */
static int first_time(struct import *im, struct call *c)
{
	if (c->has_time && (!im->have_first || c->time_ns < im->first_ns)) {
		im->first_ns = c->time_ns;
		im->have_first = 1;
	}
	return 0;
}

static int import_usage(void)
{
	fprintf(stderr, "usage: vmtrace import-strace LOG -o TRACE\n");
	return 2;
}

int vmtrace_import_strace_main(int argc, char **argv)
{
	const char *out = NULL;
	int c;
	optind = 1;
	while ((c = getopt(argc, argv, "o:")) != -1) {
		if (c != 'o')
			return import_usage();
		out = optarg;
	}
	if (!out || optind + 1 != argc)
		return import_usage();
	struct import im = { .log_path = argv[optind] };
	const char *why;
	struct stat st;
	im.log = input_open(im.log_path, &why);
	if (im.log && (fstat(fileno(im.log), &st) < 0 || !S_ISREG(st.st_mode))) {
		fclose(im.log);   /* a pipe: the log is read three times */
		im.log = NULL;
		why = "not a regular file (the log is read three times)";
	}
	if (!im.log) {
		fprintf(stderr, "vmtrace: %s: %s\n", im.log_path, why);
		return 1;
	}
	int status = 1;
	if (read_log(&im, learn_tasks) < 0 || read_log(&im, first_time) < 0)
		goto out;
	if (!(im.w = vmtrace_create(out)))
		goto out;
	struct vmt_record hdr = { .type = VMT_REC_HEADER };
	hdr.u.header.version = VMT_FORMAT_VERSION;
	hdr.u.header.start_realtime_ns = im.first_ns;
	hdr.u.header.cmdline = im.cmdline[0] ? im.cmdline : im.first_exe;
	/* the log says nothing of the machine it came from */
	snprintf(hdr.u.header.host.kernel, sizeof(hdr.u.header.host.kernel), "unknown");
	snprintf(hdr.u.header.host.machine, sizeof(hdr.u.header.host.machine), "x86_64");
	hdr.u.header.host.page_size = VMT_PAGE;
	im.exits = im.signals = 0;
	if (write_rec(&im, &hdr) < 0 || read_log(&im, write_call) < 0) {
		vmt_writer_discard(im.w);
		goto out;
	}
	if (im.events == 0) {
		vmt_writer_discard(im.w);
		fprintf(stderr, "vmtrace: %s: no memory or process calls in the log\n", im.log_path);
		goto out;
	}
	if (vmt_writer_close(im.w) < 0) {
		fprintf(stderr, "vmtrace: %s: write failed\n", out);
		goto out;
	}
	/* a log can say what no kernel did (two brk(NULL) answers that
	 * disagree): the trace rules decide, and no trace the tools refuse
	 * is left behind */
	char msg[512];
	if (vmt_check_file(out, msg, sizeof(msg)) != 0) {
		unlink(out);
		fprintf(stderr, "vmtrace: %s: the log shows what no kernel could have done: %s\n",
		        im.log_path, msg);
		goto out;
	}
	printf("%s: %" PRIu64 " events, %" PRIu64 " other calls skipped, %" PRIu64
	       " signals, %" PRIu64 " exits\n", out, im.events, im.unknown, im.signals, im.exits);
	status = 0;
out:
	pending_clear(&im);
	free(im.pend);
	for (size_t i = 0; i < im.ntasks; i++) {
		for (uint32_t f = 0; f < im.tasks[i].nfiles; f++)
			free(im.tasks[i].files[f]);
		free(im.tasks[i].files);
	}
	free(im.tasks);
	fclose(im.log);
	return status;
}
