/* vmtrace check: read a whole trace in seq order and validate what the
 * library cannot know on its own: call numbers, the total seq order, that
 * events belong to a known process and name stacks that exist. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "analysis/vmtrace.h"

struct seen {
	int32_t *pids;
	size_t n, cap;
};

static int seen_has(const struct seen *s, int32_t pid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->pids[i] == pid)
			return 1;
	return 0;
}

static int seen_add(struct seen *s, int32_t pid)
{
	if (seen_has(s, pid))
		return 0;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		int32_t *p = realloc(s->pids, cap * sizeof(*p));
		if (!p)
			return -1;
		s->pids = p;
		s->cap = cap;
	}
	s->pids[s->n++] = pid;
	return 0;
}

/* The first problem of one record, or NULL. */
static const char *check_record(const struct vmt_record *rec, uint64_t *last_seq,
                                int *have_seq, const struct seen *procs)
{
	uint64_t seq;
	switch (rec->type) {
	case VMT_REC_EVENT: {
		const struct vmt_event *ev = &rec->u.event;
		if (ev->sys == VMT_SYS_NONE || ev->sys >= VMT_SYS_COUNT)
			return "event with an unknown system call";
		if (!seen_has(procs, ev->pid))
			return "event of a process that has no process record";
		if (ev->err < 0 || ev->err > 4095)
			return "event with an impossible errno";
		seq = ev->seq;
		if (*have_seq && seq <= *last_seq)
			return "events out of seq order (or a seq used twice)";
		*last_seq = seq;
		*have_seq = 1;
		return NULL;
	}
	case VMT_REC_MAP:
		for (uint32_t i = 0; i < rec->u.map.nvma; i++) {
			const struct vmt_vma *v = &rec->u.map.vmas[i];
			if (v->start >= v->end)
				return "memory map with an empty or inverted VMA";
			if (i && v->start < rec->u.map.vmas[i - 1].end)
				return "memory map with overlapping or unsorted VMAs";
		}
		return NULL;
	case VMT_REC_CHECKPOINT:
		if (rec->u.checkpoint.reason < VMT_CK_START || rec->u.checkpoint.reason > VMT_CK_FORK)
			return "checkpoint with an unknown reason";
		if (rec->u.checkpoint.recorder_vmas > rec->u.checkpoint.vma_count)
			return "checkpoint with more recorder VMAs than VMAs";
		return NULL;
	case VMT_REC_RESIDENCY:
		if (rec->u.residency.npages == 0)
			return "empty residency record";
		return NULL;
	default:
		return NULL;
	}
}

int vmtrace_check_main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: vmtrace check TRACE\n");
		return 2;
	}
	const char *path = argv[1];
	struct vmt_reader *r = vmtrace_open(path, VMT_ORDER_SEQ);
	if (!r)
		return 1;
	const struct vmt_header *h = vmt_reader_header(r);
	struct seen procs = { 0 };
	struct vmt_record rec;
	uint64_t last_seq = 0, records = 0;
	int have_seq = 0, ret = 0;
	const char *problem = NULL;
	if (h->version != VMT_FORMAT_VERSION)
		problem = "header of another format version";
	while (!problem && (ret = vmt_reader_next(r, &rec)) > 0) {
		records++;
		if (rec.type == VMT_REC_PROCESS && seen_add(&procs, rec.u.process.pid) < 0) {
			problem = "out of memory";
			break;
		}
		problem = check_record(&rec, &last_seq, &have_seq, &procs);
	}
	struct vmt_reader_stats st;
	vmt_reader_stats(r, &st);
	int status = 1;
	if (problem) {
		printf("%s: bad: %s (record %" PRIu64 ")\n", path, problem, records);
	} else if (ret == VMT_ETRUNCATED) {
		printf("%s: truncated: %" PRIu64 " bytes lost after %" PRIu64
		       " complete chunk%s (%" PRIu64 " events readable)\n",
		       path, st.lost_bytes, st.chunks, st.chunks == 1 ? "" : "s", st.events);
	} else if (ret < 0) {
		printf("%s\n", vmt_reader_error(r));
	} else {
		printf("%s: OK: %" PRIu64 " events, %zu processes, %" PRIu64 " records, %"
		       PRIu64 " chunks, %" PRIu64 " bytes\n",
		       path, st.events, procs.n, st.records, st.chunks, st.file_bytes);
		status = 0;
	}
	free(procs.pids);
	vmt_reader_close(r);
	return status;
}
