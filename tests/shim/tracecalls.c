/* tracecalls - print a trace's events one per line, for the shim tests:
 *
 *   PID TID NAME ARG0 ARG1 ... = RESULT [ERRNO] [FLAGS]
 *
 * (arguments and results in hex, as `strace -e raw=all` prints them), and
 * with -a the other records too (process, map size, file with its ino,
 * size and file system type, checkpoint, residency, ranges, end), and with -r the residency records' pages
 * too, as runs FIRST+COUNT of page offsets read from the bitmap.  Records are read in file order and sorted here by sequence
 * number (records without one follow the record before them in the file),
 * so the output does not depend on the reader's merge.
 *
 * With -g it prints nothing of the records: it says how many sequence
 * numbers no record holds (events, processes, checkpoints, ENDs take one
 * each) and how many records the ENDs say were lost, and exits 3 when
 * more are missing than lost: a record lost without a word. */
#include "vmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct line { uint64_t key, index; char *text; };
static struct line *lines;
static size_t nlines, cap;
static char buf[1 << 16];
static size_t used;
struct held { uint64_t seq; int32_t pid, tid; const char *what; };
static struct held *seqs;
static size_t nseqs, seqcap;

static void held(uint64_t seq, int32_t pid, int32_t tid, const char *what)
{
	if (nseqs == seqcap) {
		seqcap = seqcap ? seqcap * 2 : 4096;
		void *more = realloc(seqs, seqcap * sizeof *seqs);
		if (!more)
			exit(1);
		seqs = more;
	}
	seqs[nseqs++] = (struct held){ seq, pid, tid, what ? what : "?" };
}

static int by_seq(const void *a, const void *b)
{
	uint64_t x = ((const struct held *)a)->seq, y = ((const struct held *)b)->seq;
	return x < y ? -1 : x > y;
}

/* -g: the seqs from the lowest to the highest that no record holds. */
static int gaps(uint64_t lost)
{
	uint64_t missing = 0;
	qsort(seqs, nseqs, sizeof *seqs, by_seq);
	for (size_t i = 1; i < nseqs; i++)
		if (seqs[i].seq > seqs[i - 1].seq + 1) {
			const struct held *a = &seqs[i - 1], *b = &seqs[i];
			if (missing < 10)
				fprintf(stderr, "tracecalls: no record holds seq %llu..%llu (between %d %d %s and %d %d %s)\n",
				        (unsigned long long)a->seq + 1, (unsigned long long)b->seq - 1,
				        a->pid, a->tid, a->what, b->pid, b->tid, b->what);
			missing += b->seq - a->seq - 1;
		}
	printf("missing %llu lost %llu\n", (unsigned long long)missing, (unsigned long long)lost);
	return missing > lost ? 3 : 0;
}

/* Collect what was printed into buf since the last call as one line. */
static void keep(uint64_t key)
{
	if (nlines == cap) {
		cap = cap ? cap * 2 : 4096;
		void *more = realloc(lines, cap * sizeof *lines);
		if (!more)
			exit(1);
		lines = more;
	}
	lines[nlines].key = key;
	lines[nlines].index = nlines;
	lines[nlines].text = strdup(buf);
	nlines++;
	used = 0;
	buf[0] = 0;
}

#define printf(...) (used += (size_t)snprintf(buf + used, sizeof buf - used, __VA_ARGS__))
#define putchar(c) printf("%c", c)

static int by_key(const void *a, const void *b)
{
	const struct line *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

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
	if (e->flags & VMT_EV_LAUNCHER) printf(" LAUNCHER");
	if (e->file_id) printf(" file=%u", e->file_id);
	if (e->stack_id) printf(" stack=%u", e->stack_id);
	putchar('\n');
}

int main(int argc, char **argv)
{
	int runs = argc > 2 && strcmp(argv[1], "-r") == 0;
	int gapcheck = argc > 2 && strcmp(argv[1], "-g") == 0;
	uint64_t lost = 0;
	int all = runs || (argc > 2 && strcmp(argv[1], "-a") == 0), err;
	const char *path = argv[argc - 1];
	struct vmt_reader_prefs prefs = { .order = VMT_ORDER_FILE };
	uint64_t key = 0;
	struct vmt_record rec;
	if (argc < 2) {
		fprintf(stderr, "usage: tracecalls [-a|-r|-g] TRACE\n");
		return 2;
	}
	struct vmt_reader *r = vmt_reader_open(path, &prefs, &err);
	if (!r) {
		fprintf(stderr, "%s\n", vmt_reader_open_error());
		return 1;
	}
	while ((err = vmt_reader_next(r, &rec)) > 0) {
		if (gapcheck) {
			switch (rec.type) {
			case VMT_REC_EVENT:
				held(rec.u.event.seq, rec.u.event.pid, rec.u.event.tid, vmt_sys_name(rec.u.event.sys));
				break;
			case VMT_REC_PROCESS: held(rec.u.process.seq, rec.u.process.pid, 0, "process"); break;
			case VMT_REC_CHECKPOINT: held(rec.u.checkpoint.seq, rec.u.checkpoint.pid, 0, "checkpoint"); break;
			case VMT_REC_END:
				held(rec.u.end.seq, rec.u.end.pid, 0, "end");
				lost += rec.u.end.lost;
				break;
			}
			continue;
		}
		switch (rec.type) {
		case VMT_REC_EVENT: key = rec.u.event.seq; break;
		case VMT_REC_PROCESS: key = rec.u.process.seq; break;
		case VMT_REC_MAP: key = rec.u.map.seq; break;
		case VMT_REC_CHECKPOINT: key = rec.u.checkpoint.seq; break;
		case VMT_REC_LAYOUT: key = rec.u.layout.seq; break;
		case VMT_REC_RESIDENCY: key = rec.u.residency.seq; break;
		case VMT_REC_END: key = rec.u.end.seq; break;
		}
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
		case VMT_REC_LAYOUT:
			if (all) {
				unsigned rec_vmas = 0;
				for (uint32_t i = 0; i < rec.u.layout.nvma; i++)
					rec_vmas += !!(rec.u.layout.vmas[i].flags & VMT_VMA_RECORDER);
				printf("layout %d vmas %u recorder %u\n", rec.u.layout.pid, rec.u.layout.nvma, rec_vmas);
			}
			break;
		case VMT_REC_FILE:
			if (all)
				printf("file %d %u %s ino=%llu size=%llu fs=%#llx\n", rec.u.file.pid, rec.u.file.id,
				       rec.u.file.path, (unsigned long long)rec.u.file.ino,
				       (unsigned long long)rec.u.file.size, (unsigned long long)rec.u.file.fs_type);
			break;
		case VMT_REC_STACK:
			if (all)
				printf("stack %d %u depth %u\n", rec.u.stack.pid, rec.u.stack.id,
				       rec.u.stack.depth);
			break;
		case VMT_REC_MODULE:
			if (all)
				printf("module %d %s build-id %u bytes\n", rec.u.module.pid,
				       rec.u.module.path, rec.u.module.build_id_len);
			break;
		case VMT_REC_RANGES:
			if (all) {
				const struct vmt_ranges *x = &rec.u.ranges;
				printf("ranges %d seq %llu kind %u n %u", x->pid, (unsigned long long)x->seq,
				       x->kind, x->n);
				for (uint32_t i = 0; i < x->n; i++)
					printf(" %#llx+%#llx", (unsigned long long)x->ranges[i].start,
					       (unsigned long long)x->ranges[i].len);
				if (x->kind == VMT_RANGES_IOVEC)
					printf(" target %d", x->target);
				if (x->kind == VMT_RANGES_UFFDIO_REGISTER)
					printf(" mode %#llx ioctls %#llx", (unsigned long long)x->mode,
					       (unsigned long long)x->ioctls);
				if (x->kind == VMT_RANGES_VMA_NAME)
					printf(" name %u %s", x->name_how, x->name ? x->name : "-");
				if (x->kind == VMT_RANGES_NODEMASK) {
					printf(" nodes");
					for (uint32_t i = 0; i < x->nwords; i++)
						printf(" %#llx", (unsigned long long)x->nodes[i]);
				}
				printf("\n");
			}
			break;
		case VMT_REC_END:
			if (all)
				printf("end %d how %u status %d lost %llu\n", rec.u.end.pid, rec.u.end.how,
				       rec.u.end.status, (unsigned long long)rec.u.end.lost);
			break;
		case VMT_REC_RESIDENCY:
			if (all) {
				uint64_t res = 0;
				for (uint64_t i = 0; i < rec.u.residency.npages; i++)
					res += (rec.u.residency.bits[i / 8] >> (i % 8)) & 1;
				printf("residency %d %#llx pages %llu resident %llu", rec.u.residency.pid,
				       (unsigned long long)rec.u.residency.start,
				       (unsigned long long)rec.u.residency.npages, (unsigned long long)res);
				for (uint64_t i = 0; runs && i < rec.u.residency.npages; i++) {
					uint64_t n = 0;
					while (i + n < rec.u.residency.npages &&
					       (rec.u.residency.bits[(i + n) / 8] >> ((i + n) % 8) & 1))
						n++;
					if (n)
						printf(" %llu+%llu", (unsigned long long)i, (unsigned long long)n);
					i += n;
				}
				printf("\n");
			}
			break;
		}
		if (used)
			keep(key);
	}
#undef printf
	if (gapcheck && err >= 0) {
		vmt_reader_close(r);
		return gaps(lost);
	}
	qsort(lines, nlines, sizeof *lines, by_key);
	for (size_t i = 0; i < nlines; i++)
		fputs(lines[i].text, stdout);
	if (err < 0) {
		fprintf(stderr, "%s\n", vmt_reader_error(r));
		vmt_reader_close(r);
		return 1;
	}
	vmt_reader_close(r);
	return 0;
}
