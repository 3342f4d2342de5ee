/* The trace store's slabs (traces/vmt_store.c): a sealed slab the launcher
 * drains holds each record once and can be logged into again; a slab whose
 * records go back in seq (a pooled writer's) finishes as chunks that never
 * go back; what a slab still holds is written after every chunk, so an END
 * logged there comes after the records it ends.  A reap takes the images
 * that ended out of the list it walks, and never one still running.  A
 * process attaching leaves the head page untouched until it writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/tap.h"
#include "vmt.h"
#include "vmt_store.h"

static char dir[] = "/tmp/vmrec-store-test.XXXXXX";

static struct vmt_record brk_event(uint64_t seq)
{
	struct vmt_record r = { .type = VMT_REC_EVENT };
	r.u.event = (struct vmt_event){ .seq = seq, .time_ns = 1000 * seq, .latency_ns = 300, .pid = 100,
	                                .tid = 100, .sys = VMT_SYS_BRK, .result = (int64_t)(0x10000000 + 4096 * seq),
	                                .args = { 0x10000000 + 4096 * seq } };
	return r;
}

/* A store for trace `name` in dir, with the trace's header put. */
static int new_store(struct vmt_store *s, const char *name, char *out, size_t cap)
{
	char path[256];
	snprintf(out, cap, "%s/%s.vmt", dir, name);
	snprintf(path, sizeof path, "%s.vmrec-store.1", out);
	if (vmt_store_create(s, path, out, 0600, 1) < 0)
		return -1;
	struct vmt_store_put put = { s, NULL };
	struct vmt_sink sink = { vmt_store_sink_put, &put };
	struct vmt_writer_prefs prefs = { .sink = &sink };
	struct vmt_writer *w = vmt_writer_fdopen(-1, 100, 100, &prefs);
	struct vmt_record h = { .type = VMT_REC_HEADER };
	h.u.header.version = VMT_FORMAT_VERSION;
	h.u.header.cmdline = "store_test";
	int r = !w || vmt_write(w, &h) || vmt_writer_close(w);
	return r ? -1 : 0;
}

static int finish(struct vmt_store *s)
{
	char msg[256];
	int r = vmt_store_finish(s, NULL, 0, NULL, 0, NULL, msg, sizeof msg);
	if (r < 0)
		diag("finish: %s", msg);
	else
		vmt_store_remove(s);
	vmt_store_detach(s);
	return r;
}

/* The trace's records in `order`: their seqs (events and END) into seq[],
 * their types into type[]; the count, or -1. */
static int read_back(const char *path, int order, uint64_t *seq, int *type, int cap)
{
	int err, n = 0;
	struct vmt_reader_prefs prefs = { .order = order };
	struct vmt_reader *r = vmt_reader_open(path, &prefs, &err);
	struct vmt_record rec;
	if (!r)
		return -1;
	while (vmt_reader_next(r, &rec) == 1 && n < cap) {
		if (rec.type != VMT_REC_EVENT && rec.type != VMT_REC_END)
			continue;
		seq[n] = rec.type == VMT_REC_EVENT ? rec.u.event.seq : rec.u.end.seq;
		type[n++] = rec.type;
	}
	vmt_reader_close(r);
	return n;
}

static uint64_t seq[4096];
static int type[4096];

static void drained_slab(void)
{
	struct vmt_store s = { 0 };
	char out[256];
	int bad = 0;
	if (!ok(new_store(&s, "drain", out, sizeof out) == 0, "drain: a store"))
		return;
	struct vmt_store_slab *sl = vmt_store_slab_new(&s, 100, 100);
	uint64_t n = 0;
	struct vmt_record r;
	while (r = brk_event(n + 1), vmt_store_log(sl, &r) == 0)
		n++;
	ok(n > 1000, "drain: %llu events fill a slab", (unsigned long long)n);
	/* a full slab keeps room for its writer's END (in a full store, the
	 * one place that counts what was lost) */
	struct vmt_record end = { .type = VMT_REC_END };
	end.u.end = (struct vmt_end){ .seq = 1u << 30, .pid = 100, .lost = ~0ull };
	uint32_t len = sl->len;
	ok(vmt_store_log(sl, &end) == 0 && sl->len > len, "drain: a full slab takes an END");
	sl->len = len;
	vmt_store_seal(&s, sl);
	uint64_t off = VMT_STORE_HEAD;
	ok(vmt_store_next_slab(&s, &off) == sl && vmt_store_next_slab(&s, &off) == NULL,
	   "drain: the launcher finds the one slab");
	ok(vmt_store_drain(&s, sl, NULL) == 0, "drain: drained");
	ok(sl->state == VMT_SLAB_DRAINED && sl->start >= sl->len, "drain: the slab is DRAINED and holds nothing");
	/* its writer takes it again */
	sl->state = VMT_SLAB_ACTIVE;
	for (uint64_t i = n + 1; i <= n + 10; i++) {
		r = brk_event(i);
		bad += vmt_store_log(sl, &r) != 0;
	}
	ok(!bad && sl->len > 0 && sl->len < 2000, "drain: logged into again from its start");
	ok(finish(&s) == 0, "drain: finished");
	int got = read_back(out, VMT_ORDER_SEQ, seq, type, 4096);
	for (int i = 0; i < got; i++)
		bad += seq[i] != (uint64_t)i + 1;
	ok(got == (int)n + 10 && !bad, "drain: every event once, in order (%d of %llu)", got,
	   (unsigned long long)n + 10);
}

static void seq_back(void)
{
	struct vmt_store s = { 0 };
	char out[256];
	static const uint64_t logged[] = { 10, 11, 12, 5, 6 };
	if (!ok(new_store(&s, "back", out, sizeof out) == 0, "back: a store"))
		return;
	struct vmt_store_slab *sl = vmt_store_slab_new(&s, 100, 100);
	for (size_t i = 0; i < sizeof logged / sizeof logged[0]; i++) {
		struct vmt_record r = brk_event(logged[i]);
		vmt_store_log(sl, &r);
	}
	ok(finish(&s) == 0, "back: finished");
	int got = read_back(out, VMT_ORDER_SEQ, seq, type, 4096);
	char list[128] = "";
	for (int i = 0; i < got; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%llu", i ? " " : "",
		         (unsigned long long)seq[i]);
	ok(!strcmp(list, "5 6 10 11 12"), "back: read in seq order: %s", list);
}

static void end_last(void)
{
	struct vmt_store s = { 0 };
	char out[256];
	if (!ok(new_store(&s, "end", out, sizeof out) == 0, "end: a store"))
		return;
	/* the shim's path: each record into the slab, then a chunk of them */
	struct vmt_store_slab *sl = vmt_store_slab_new(&s, 100, 100);
	struct vmt_store_put put = { &s, sl };
	struct vmt_sink sink = { vmt_store_sink_put, &put };
	struct vmt_writer_prefs prefs = { .sink = &sink };
	struct vmt_writer *w = vmt_writer_fdopen(-1, 100, 100, &prefs);
	for (uint64_t i = 1; i <= 3; i++) {
		struct vmt_record r = brk_event(i);
		vmt_store_log(sl, &r);
		vmt_write(w, &r);
	}
	vmt_writer_close(w);   /* the chunk, in a region after the slab's */
	struct vmt_record end = { .type = VMT_REC_END };
	end.u.end = (struct vmt_end){ .seq = 4, .pid = 100, .how = VMT_END_EXIT };
	vmt_store_log(sl, &end);   /* as a drained writer logs it: in the slab only */
	ok(finish(&s) == 0, "end: finished");
	int got = read_back(out, VMT_ORDER_FILE, seq, type, 4096);
	ok(got == 4 && type[3] == VMT_REC_END && seq[0] == 1,
	   "end: in file order the END comes after the chunk (%d records, the last a %s)", got,
	   got > 0 && type[got - 1] == VMT_REC_END ? "END" : "event");
}

/* The images in the store's list, oldest last: their pids into pid[]. */
static int list_pids(struct vmt_store *s, size_t hdr, int32_t *pid, int cap)
{
	int n = 0;
	for (uint64_t off = s->head->procs; off && n < cap; n++) {
		const struct vmt_store_proc *p = (const void *)(s->base + off + hdr);
		pid[n] = p->pid;
		off = p->next;
	}
	return n;
}

static void reap_list(void)
{
	struct vmt_store s;
	char out[256];
	if (new_store(&s, "reap", out, sizeof out) < 0) {
		ok(0, "reap: store made");
		return;
	}
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	int32_t self = (int32_t)getpid();
	struct vmt_store_proc *running = vmt_store_proc_new(&s, self);
	/* where a proc's header ends: the list's offsets name the regions */
	size_t hdr = (size_t)((uint8_t *)running - s.base) - s.head->procs;
	struct vmt_store_proc *gone = vmt_store_proc_new(&s, (int32_t)dead);
	struct vmt_store_proc *ended = vmt_store_proc_new(&s, self);
	struct vmt_store_proc *execed = vmt_store_proc_new(&s, self);
	s.head->live = 4;
	vmt_store_proc_leave(&s, ended, VMT_PROC_ENDED);
	__atomic_store_n(&execed->state, VMT_PROC_EXECED, __ATOMIC_RELEASE);   /* may fail back */
	int64_t live = vmt_store_reap(&s, 0);
	ok(gone->state == VMT_PROC_GONE && live == 2,
	   "reap: the image whose pid is gone is GONE, 2 live left (%lld)", (long long)live);
	int32_t pid[8];
	int n = list_pids(&s, hdr, pid, 8);
	ok(n == 2 && pid[0] == self && pid[1] == self,
	   "reap: the ENDED and the GONE image are out of the list, RUNNING and EXECED stay (%d left)", n);
	vmt_store_proc_new(&s, self);
	s.head->live++;
	live = vmt_store_reap(&s, 0);
	n = list_pids(&s, hdr, pid, 8);
	ok(n == 3 && live == 3, "reap: an image made after a reap is in the list with the others (%d)", n);
	ok(finish(&s) == 0, "reap: finished");
}

/* Whether the page at p is mapped in this process (pagemap's bit 63). */
static int page_present(const void *p)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0)
		return -1;
	off_t at = (off_t)((uintptr_t)p / 4096 * 8);
	ssize_t n = pread(fd, &e, sizeof e, at);
	close(fd);
	return n == (ssize_t)sizeof e ? (int)(e >> 63) : -1;
}

/* A process that attaches touches the store's head page first with its
 * first reservation's write: one fault, where a read before it maps the
 * page read-only and the write faults again (in every recorded process). */
static void attach_untouched(void)
{
	struct vmt_store s, a;
	char out[256];
	if (new_store(&s, "attach", out, sizeof out) < 0) {
		ok(0, "attach: store made");
		return;
	}
	int r = vmt_store_attach(&a, s.path);
	ok(r == 0 && a.head != s.head, "attach: a second mapping of the store (%d)", r);
	if (r)
		return;
	is_int(page_present(a.head), 0, "attach: the head page is not touched by attaching");
	struct vmt_store_proc *p = vmt_store_proc_new(&a, (int32_t)getpid());
	ok(p && page_present(a.head) == 1, "attach: the first reservation maps it");
	vmt_store_detach(&a);
	ok(finish(&s) == 0, "attach: finished");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("store_test: mkdtemp");
		return 1;
	}
	drained_slab();
	seq_back();
	end_last();
	reap_list();
	attach_untouched();
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
	return done_testing();
}
