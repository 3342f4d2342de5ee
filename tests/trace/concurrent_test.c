/* Three processes of three threads each append to one O_APPEND file, one
 * writer per thread, with seq numbers from one shared counter: every event
 * comes back once and intact, each thread's in order, and seq order merges
 * them all into one increasing sequence. */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/tap.h"
#include "tests/trace/gen.h"

#define NPROC 3
#define NTHREAD 3
#define PER_THREAD 40000
#define TOTAL (NPROC * NTHREAD * PER_THREAD)

static _Atomic uint64_t *next_seq;
static int trace_fd;

static void fill(struct vmt_event *e, uint64_t seq)
{
	uint64_t h = gen_hash(seq);
	e->seq = seq;
	e->seq_end = seq + 1;
	e->time_ns = 5000000000ull + seq * 1700;
	e->latency_ns = 1400 + h % 200;
	e->sys = (uint16_t)(1 + h % (VMT_SYS_COUNT - 1));
	for (int i = 0; i < 6; i++)
		e->args[i] = h % 3 ? gen_hash(seq + (uint64_t)i) : 4096u * (unsigned)i;
	e->result = (int64_t)(h >> 8);
	e->flags = (uint16_t)(h % 5 == 0);
}

static void *thread_main(void *arg)
{
	struct vmt_writer_prefs prefs = { .chunk_bytes = 8192 };
	struct vmt_writer *w = vmt_writer_fdopen(trace_fd, getpid(), gettid(), &prefs);
	struct vmt_record rec = { .type = VMT_REC_EVENT };
	intptr_t bad = 0;

	(void)arg;
	for (int i = 0; i < PER_THREAD; i++) {
		struct vmt_event *e = &rec.u.event;
		memset(e, 0, sizeof(*e));
		fill(e, atomic_fetch_add(next_seq, 1));
		e->pid = getpid();
		e->tid = gettid();
		bad |= vmt_write(w, &rec) != 0;
	}
	bad |= vmt_writer_close(w) != 0;
	return (void *)bad;
}

static int run_process(void)
{
	pthread_t t[NTHREAD];
	int bad = 0;
	for (int i = 0; i < NTHREAD; i++)
		pthread_create(&t[i], NULL, thread_main, NULL);
	for (int i = 0; i < NTHREAD; i++) {
		void *ret;
		pthread_join(t[i], &ret);
		bad |= ret != NULL;
	}
	return bad;
}

struct tid_last { int32_t tid; uint64_t last; };

static void check(const char *path, int order, const char *name)
{
	struct vmt_reader_prefs prefs = { order };
	struct vmt_record rec;
	struct tid_last tids[NPROC * NTHREAD] = { { 0, 0 } };
	uint8_t *seen = calloc(TOTAL, 1);
	uint64_t n = 0, wrong = 0, dup = 0, misordered = 0, last = 0;
	int ntids = 0, err, ret;
	struct vmt_reader *r = vmt_reader_open(path, &prefs, &err);

	if (!r) {
		ok(0, "%s: open: %s", name, vmt_reader_open_error());
		return;
	}
	while ((ret = vmt_reader_next(r, &rec)) == 1) {
		struct vmt_event want = { 0 }, *e = &rec.u.event;
		int t;
		n++;
		if (rec.type != VMT_REC_EVENT || e->seq >= TOTAL || seen[e->seq]++) {
			dup++;
			continue;
		}
		fill(&want, e->seq);
		want.pid = e->pid;
		want.tid = e->tid;
		wrong += memcmp(&want, e, sizeof(want)) != 0;
		for (t = 0; t < ntids && tids[t].tid != e->tid; t++)
			;
		if (t == ntids) {
			if (ntids == NPROC * NTHREAD) {
				wrong++;
				continue;
			}
			tids[ntids++] = (struct tid_last){ e->tid, e->seq };
		} else if (e->seq < tids[t].last) {
			misordered++;
		}
		tids[t].last = e->seq;
		if (order == VMT_ORDER_SEQ && n > 1 && e->seq != last + 1)
			misordered++;
		last = e->seq;
	}
	is_int(ret, 0, "%s: reads to a clean end", name);
	is_int(n, TOTAL, "%s: every event", name);
	is_int(dup, 0, "%s: none twice", name);
	is_int(wrong, 0, "%s: every event intact", name);
	is_int(ntids, NPROC * NTHREAD, "%s: from %d threads", name, NPROC * NTHREAD);
	is_int(misordered, 0, order == VMT_ORDER_SEQ ? "%s: seq 0, 1, 2, ... in order"
	                                           : "%s: each thread's events in order", name);
	vmt_reader_close(r);
	free(seen);
}

int main(void)
{
	char path[] = "/tmp/vmt-concurrent-XXXXXX";
	pid_t kids[NPROC];
	int bad = 0;
	struct vmt_record hdr;
	struct vmt_writer *w;

	trace_fd = mkstemp(path);
	close(trace_fd);
	w = vmt_writer_open(path, NULL, NULL);
	gen_header(&hdr);
	vmt_write(w, &hdr);
	vmt_writer_close(w);

	trace_fd = open(path, O_WRONLY | O_APPEND);
	next_seq = mmap(NULL, sizeof(*next_seq), PROT_READ | PROT_WRITE,
	                MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	for (int i = 0; i < NPROC; i++) {
		kids[i] = fork();
		if (kids[i] == 0)
			_exit(run_process());
	}
	for (int i = 0; i < NPROC; i++) {
		int st;
		waitpid(kids[i], &st, 0);
		bad |= !WIFEXITED(st) || WEXITSTATUS(st);
	}
	close(trace_fd);
	is_int(bad, 0, "%d processes x %d threads wrote without error", NPROC, NTHREAD);
	check(path, VMT_ORDER_FILE, "file order");
	check(path, VMT_ORDER_SEQ, "seq order");
	unlink(path);
	return done_testing();
}
