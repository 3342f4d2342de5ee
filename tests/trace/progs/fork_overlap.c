/* fork_overlap FILE: each call that overlapped in time (its [seq, seq_end)
 * interval) a fork of its own process by another thread, one a line:
 *   overlap PID FORK_SEQ..END TID SEQ..END SYS
 * then "forks N overlaps M"; exit 1 if the trace could not be read. */
#include <stdio.h>
#include "vmt.h"

#define MAXF 4096

int main(int argc, char **argv)
{
	struct vmt_reader_prefs prefs = { VMT_ORDER_FILE };
	struct vmt_record rec;
	struct vmt_event f[MAXF];
	size_t nf = 0, n = 0;
	int err, ret;
	if (argc != 2) {
		fprintf(stderr, "usage: fork_overlap FILE\n");
		return 2;
	}
	for (int pass = 0; pass < 2; pass++) {
		struct vmt_reader *r = vmt_reader_open(argv[1], &prefs, &err);
		if (!r) {
			fprintf(stderr, "%s\n", vmt_reader_open_error());
			return 1;
		}
		while ((ret = vmt_reader_next(r, &rec)) > 0) {
			if (rec.type != VMT_REC_EVENT)
				continue;
			const struct vmt_event *e = &rec.u.event;
			/* fork, or clone without CLONE_VM (0x100) */
			int fork = (e->sys == VMT_SYS_FORK || (e->sys == VMT_SYS_CLONE && !(e->args[0] & 0x100))) &&
			           !e->err && e->result > 0;
			if (pass == 0) {
				if (fork && nf < MAXF)
					f[nf++] = *e;
				continue;
			}
			for (size_t i = 0; i < nf; i++)
				if (f[i].pid == e->pid && f[i].tid != e->tid && e->seq < f[i].seq_end &&
				    f[i].seq < e->seq_end) {
					printf("overlap %d %llu..%llu %d %llu..%llu %s\n", e->pid,
					       (unsigned long long)f[i].seq, (unsigned long long)f[i].seq_end, e->tid,
					       (unsigned long long)e->seq, (unsigned long long)e->seq_end,
					       vmt_sys_name(e->sys));
					n++;
				}
		}
		if (ret < 0)
			fprintf(stderr, "%s\n", vmt_reader_error(r));
		vmt_reader_close(r);
		if (ret < 0)
			return 1;
	}
	printf("forks %zu overlaps %zu\n", nf, n);
	return 0;
}
