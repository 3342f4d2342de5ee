/* tracecalls - print a trace's events one per line, for the shim tests:
 *
 *   PID TID NAME ARG0 ARG1 ... = RESULT [ERRNO] [FLAGS]
 *
 * (arguments and results in hex, as `strace -e raw=all` prints them), and
 * with -a the other records too (process, map size, file, checkpoint,
 * residency).  Read in global sequence order. */
#include "vmt.h"

#include <stdio.h>
#include <string.h>

static void event(const struct vmt_event *e)
{
	const char *name = vmt_sys_name(e->sys);
	int n = vmt_sys_nargs(e->sys);
	printf("%d %d %s", e->pid, e->tid, name ? name : "?");
	for (int i = 0; i < n && i < 6; i++)
		printf(" %#llx", (unsigned long long)e->args[i]);
	if (e->flags & 0x0002)
		printf(" = ?");
	else if (e->err)
		printf(" = -1 %d", e->err);
	else
		printf(" = %#llx", (unsigned long long)e->result);
	if (e->flags & 0x0001) printf(" TRAPPED");
	if (e->flags & 0x0004) printf(" THREAD");
	if (e->flags & 0x0008) printf(" LOADER");
	if (e->file_id) printf(" file=%u", e->file_id);
	putchar('\n');
}

int main(int argc, char **argv)
{
	int all = argc > 2 && strcmp(argv[1], "-a") == 0, err;
	const char *path = argv[argc - 1];
	struct vmt_reader_prefs prefs = { .order = VMT_ORDER_SEQ };
	struct vmt_record rec;
	if (argc < 2) {
		fprintf(stderr, "usage: tracecalls [-a] TRACE\n");
		return 2;
	}
	struct vmt_reader *r = vmt_reader_open(path, &prefs, &err);
	if (!r) {
		fprintf(stderr, "%s\n", vmt_reader_open_error());
		return 1;
	}
	while ((err = vmt_reader_next(r, &rec)) > 0) {
		switch (rec.type) {
		case VMT_REC_EVENT:
			event(&rec.u.event);
			break;
		case VMT_REC_PROCESS:
			if (all)
				printf("process %d ppid %d image %u %s\n", rec.u.process.pid,
				       rec.u.process.ppid, rec.u.process.image, rec.u.process.exe);
			break;
		case VMT_REC_MAP:
			if (all) {
				unsigned rec_vmas = 0;
				for (uint32_t i = 0; i < rec.u.map.nvma; i++)
					rec_vmas += !!(rec.u.map.vmas[i].flags & VMT_VMA_RECORDER);
				printf("map %d vmas %u recorder %u\n", rec.u.map.pid, rec.u.map.nvma, rec_vmas);
			}
			break;
		case VMT_REC_CHECKPOINT:
			if (all)
				printf("checkpoint %d reason %u vmas %llu recorder %llu\n",
				       rec.u.checkpoint.pid, rec.u.checkpoint.reason,
				       (unsigned long long)rec.u.checkpoint.vma_count,
				       (unsigned long long)rec.u.checkpoint.recorder_vmas);
			break;
		case VMT_REC_FILE:
			if (all)
				printf("file %d %u %s\n", rec.u.file.pid, rec.u.file.id, rec.u.file.path);
			break;
		case VMT_REC_RESIDENCY:
			if (all) {
				uint64_t res = 0;
				for (uint64_t i = 0; i < rec.u.residency.npages; i++)
					res += (rec.u.residency.bits[i / 8] >> (i % 8)) & 1;
				printf("residency %d %#llx pages %llu resident %llu\n", rec.u.residency.pid,
				       (unsigned long long)rec.u.residency.start,
				       (unsigned long long)rec.u.residency.npages, (unsigned long long)res);
			}
			break;
		}
	}
	if (err < 0) {
		fprintf(stderr, "%s\n", vmt_reader_error(r));
		vmt_reader_close(r);
		return 1;
	}
	vmt_reader_close(r);
	return 0;
}
