/* call_overlap FILE: the calls of a process that forked, after its first
 * fork returned, that overlapped in time (their [seq, seq_end) intervals)
 * a call of another of its threads, one pair a line:
 *   overlap PID TID SEQ..END SYS TID SEQ..END SYS
 * then "calls N overlaps M" (N: the calls after a fork); exit 1 if the
 * trace could not be read.  A call is compared with the 64 of its process
 * before it in the trace's order.  A clone that made a thread is not said
 * to overlap that thread's calls: the thread ran only once the kernel had
 * made it, whenever its creator's call returned, so their order is
 * decided (the thread's first call often starts before the clone's
 * return is read). */
#include <stdio.h>
#include "vmt.h"

#define MAXP 1024
#define WINDOW 64

struct proc {
	int32_t pid;
	uint64_t forked;             /* seq_end of its first fork, 0: none yet */
	struct vmt_event last[WINDOW];
	unsigned n;
};

static struct proc procs[MAXP];
static size_t nprocs;

static struct proc *proc_of(int32_t pid)
{
	for (size_t i = 0; i < nprocs; i++)
		if (procs[i].pid == pid)
			return &procs[i];
	if (nprocs == MAXP)
		return NULL;
	procs[nprocs].pid = pid;
	return &procs[nprocs++];
}

int main(int argc, char **argv)
{
	struct vmt_reader_prefs prefs = { VMT_ORDER_SEQ };
	struct vmt_record rec;
	size_t calls = 0, n = 0;
	int err, ret;
	if (argc != 2) {
		fprintf(stderr, "usage: call_overlap FILE\n");
		return 2;
	}
	struct vmt_reader *r = vmt_reader_open(argv[1], &prefs, &err);
	if (!r) {
		fprintf(stderr, "%s\n", vmt_reader_open_error());
		return 1;
	}
	while ((ret = vmt_reader_next(r, &rec)) > 0) {
		if (rec.type != VMT_REC_EVENT)
			continue;
		const struct vmt_event *e = &rec.u.event;
		struct proc *p = proc_of(e->pid);
		if (!p)
			continue;
		/* fork, or clone without CLONE_VM (0x100) */
		int fork = (e->sys == VMT_SYS_FORK || (e->sys == VMT_SYS_CLONE && !(e->args[0] & 0x100))) &&
		           !e->err && e->result > 0;
		if (p->forked && e->seq >= p->forked) {
			calls++;
			for (unsigned k = 0; k < p->n && k < WINDOW; k++) {
				const struct vmt_event *y = &p->last[k];
				int made_it = (y->sys == VMT_SYS_CLONE || y->sys == VMT_SYS_CLONE3) && !y->err &&
				              y->result == e->tid;
				if (y->tid != e->tid && !made_it && y->seq >= p->forked && e->seq < y->seq_end &&
				    y->seq < e->seq_end) {
					printf("overlap %d %d %llu..%llu %s %d %llu..%llu %s\n", e->pid, y->tid,
					       (unsigned long long)y->seq, (unsigned long long)y->seq_end,
					       vmt_sys_name(y->sys), e->tid, (unsigned long long)e->seq,
					       (unsigned long long)e->seq_end, vmt_sys_name(e->sys));
					n++;
				}
			}
		}
		if (fork && !p->forked)
			p->forked = e->seq_end;
		p->last[p->n++ % WINDOW] = *e;
	}
	if (ret < 0)
		fprintf(stderr, "%s\n", vmt_reader_error(r));
	vmt_reader_close(r);
	if (ret < 0)
		return 1;
	printf("calls %zu overlaps %zu\n", calls, n);
	return 0;
}
