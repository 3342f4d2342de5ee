/* vmtrace check: read a whole trace in seq order and validate what the
 * library cannot know on its own: call numbers, the total seq order, that
 * events belong to a known process and name stacks and files the trace
 * has (in any order: checked at the end), sane maps and checkpoints. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "analysis/vmtrace.h"

/* A set of 64-bit keys (open addressing; the key 0 is stored as itself
 * in a separate flag). */
struct idset {
	uint64_t *slots;
	size_t cap, n;
	int has_zero;
};

static size_t slot_of(uint64_t key, size_t cap)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1);
}

static int idset_has(const struct idset *s, uint64_t key)
{
	if (key == 0)
		return s->has_zero;
	if (!s->cap)
		return 0;
	for (size_t i = slot_of(key, s->cap); s->slots[i]; i = (i + 1) & (s->cap - 1))
		if (s->slots[i] == key)
			return 1;
	return 0;
}

static int idset_add(struct idset *s, uint64_t key)
{
	if (key == 0) {
		s->has_zero = 1;
		return 0;
	}
	if (idset_has(s, key))
		return 0;
	if ((s->n + 1) * 2 > s->cap) {
		struct idset big = { calloc(s->cap ? s->cap * 2 : 256, sizeof(uint64_t)),
		                     s->cap ? s->cap * 2 : 256, 0, s->has_zero };
		if (!big.slots)
			return -1;
		for (size_t i = 0; i < s->cap; i++)
			if (s->slots[i])
				idset_add(&big, s->slots[i]);
		free(s->slots);
		*s = big;
	}
	size_t i = slot_of(key, s->cap);
	while (s->slots[i])
		i = (i + 1) & (s->cap - 1);
	s->slots[i] = key;
	s->n++;
	return 0;
}

static uint64_t pid_key(int32_t pid, uint32_t id)
{
	return (uint64_t)(uint32_t)pid << 32 | id;
}

/* Processes that did not end by exiting, as their END records say. */
#define ODD_ENDS 32

struct check {
	struct idset procs, stacks, files, stack_refs, file_refs;
	uint64_t ends[VMT_END_UNRECORDED + 1], lost;
	struct vmt_end odd[ODD_ENDS];
	size_t nodd;
	uint64_t last_seq, records;
	int have_seq;
	char why[160];
};

/* The first problem of one record, or NULL. */
static const char *check_record(struct check *c, const struct vmt_record *rec)
{
	switch (rec->type) {
	case VMT_REC_PROCESS:
		return idset_add(&c->procs, (uint32_t)rec->u.process.pid) < 0 ? "out of memory" : NULL;
	case VMT_REC_STACK:
		if (rec->u.stack.id == 0)
			return "stack record with id 0";
		return idset_add(&c->stacks, pid_key(rec->u.stack.pid, rec->u.stack.id)) < 0
		       ? "out of memory" : NULL;
	case VMT_REC_FILE:
		if (rec->u.file.id == 0)
			return "file record with id 0";
		return idset_add(&c->files, pid_key(rec->u.file.pid, rec->u.file.id)) < 0
		       ? "out of memory" : NULL;
	case VMT_REC_EVENT: {
		const struct vmt_event *ev = &rec->u.event;
		if (ev->sys == VMT_SYS_NONE || ev->sys >= VMT_SYS_COUNT)
			return "event with an unknown system call";
		if (!idset_has(&c->procs, (uint32_t)ev->pid))
			return "event of a process that has no process record";
		if (ev->err < 0 || ev->err > 4095)
			return "event with an impossible errno";
		if (c->have_seq && ev->seq <= c->last_seq)
			return "events out of seq order (or a seq used twice)";
		c->last_seq = ev->seq;
		c->have_seq = 1;
		if ((ev->stack_id && idset_add(&c->stack_refs, pid_key(ev->pid, ev->stack_id)) < 0) ||
		    (ev->file_id && idset_add(&c->file_refs, pid_key(ev->pid, ev->file_id)) < 0))
			return "out of memory";
		return NULL;
	}
	case VMT_REC_MAP:
		for (uint32_t i = 0; i < rec->u.map.nvma; i++) {
			const struct vmt_vma *v = &rec->u.map.vmas[i];
			if (v->start >= v->end)
				return "memory map with an empty or inverted VMA";
			if (i && v->start < rec->u.map.vmas[i - 1].end)
				return "memory map with overlapping or unsorted VMAs";
			if (v->file_id && idset_add(&c->file_refs, pid_key(rec->u.map.pid, v->file_id)) < 0)
				return "out of memory";
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
	case VMT_REC_END:
		c->ends[rec->u.end.how]++;
		c->lost += rec->u.end.lost;
		if (rec->u.end.how != VMT_END_EXIT && c->nodd < ODD_ENDS)
			c->odd[c->nodd++] = rec->u.end;
		return NULL;
	default:
		return NULL;
	}
}

/* References to stacks and files the trace never defined. */
static const char *check_refs(struct check *c)
{
	static const struct { const char *what; size_t refs, defs; } kinds[] = {
		{ "stack", offsetof(struct check, stack_refs), offsetof(struct check, stacks) },
		{ "file", offsetof(struct check, file_refs), offsetof(struct check, files) },
	};
	for (size_t k = 0; k < 2; k++) {
		const struct idset *refs = (const struct idset *)((char *)c + kinds[k].refs);
		const struct idset *defs = (const struct idset *)((char *)c + kinds[k].defs);
		for (size_t i = 0; i < refs->cap; i++) {
			uint64_t key = refs->slots[i];
			if (key && !idset_has(defs, key)) {
				snprintf(c->why, sizeof(c->why), "pid %d refers to %s %u, which the trace does not have",
				         (int32_t)(key >> 32), kinds[k].what, (uint32_t)key);
				return c->why;
			}
		}
	}
	return NULL;
}

/* How processes ended, when any did otherwise than by exiting (format
 * version 2 records it; older traces say nothing). */
static void print_ends(const struct check *c)
{
	uint64_t odd = c->ends[VMT_END_SIGNAL] + c->ends[VMT_END_VANISHED] +
	               c->ends[VMT_END_UNRECORDED];
	if (!odd && !c->lost)
		return;
	printf("ended: %" PRIu64 " exited, %" PRIu64 " killed by a signal, %" PRIu64
	       " vanished, %" PRIu64 " exec'd an unrecorded program; %" PRIu64 " records lost\n",
	       c->ends[VMT_END_EXIT], c->ends[VMT_END_SIGNAL], c->ends[VMT_END_VANISHED],
	       c->ends[VMT_END_UNRECORDED], c->lost);
	for (size_t i = 0; i < c->nodd; i++) {
		const struct vmt_end *e = &c->odd[i];
		if (e->how == VMT_END_SIGNAL)
			printf("pid %d: killed by signal %d\n", e->pid, e->status);
		else if (e->how == VMT_END_VANISHED)
			printf("pid %d: vanished (ended without a word; its last records may be missing)\n",
			       e->pid);
		else
			printf("pid %d: exec'd a program the recorder cannot follow\n", e->pid);
	}
	if (odd > c->nodd)
		printf("... and %" PRIu64 " more\n", odd - c->nodd);
}

static void check_free(struct check *c)
{
	free(c->procs.slots);
	free(c->stacks.slots);
	free(c->files.slots);
	free(c->stack_refs.slots);
	free(c->file_refs.slots);
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
	struct check c = { 0 };
	struct vmt_record rec;
	int ret = 0;
	const char *problem = NULL;
	if (h->version < VMT_FORMAT_OLDEST || h->version > VMT_FORMAT_VERSION)
		problem = "header of another format version";
	while (!problem && (ret = vmt_reader_next(r, &rec)) > 0) {
		c.records++;
		problem = check_record(&c, &rec);
	}
	int at_end = 0;
	if (!problem && ret >= 0) {
		problem = check_refs(&c);
		at_end = 1;
	}
	struct vmt_reader_stats st;
	vmt_reader_stats(r, &st);
	int status = 1;
	if (problem && at_end) {
		printf("%s: bad: %s\n", path, problem);
	} else if (problem) {
		printf("%s: bad: %s (record %" PRIu64 ")\n", path, problem, c.records);
	} else if (ret == VMT_ETRUNCATED) {
		printf("%s: truncated: %" PRIu64 " bytes lost after %" PRIu64
		       " complete chunk%s (%" PRIu64 " events readable)\n",
		       path, st.lost_bytes, st.chunks, st.chunks == 1 ? "" : "s", st.events);
	} else if (ret < 0) {
		printf("%s\n", vmt_reader_error(r));
	} else {
		printf("%s: OK: %" PRIu64 " events, %zu processes, %" PRIu64 " records, %"
		       PRIu64 " chunks, %" PRIu64 " bytes\n",
		       path, st.events, c.procs.n + (size_t)c.procs.has_zero, st.records,
		       st.chunks, st.file_bytes);
		print_ends(&c);
		status = 0;
	}
	check_free(&c);
	vmt_reader_close(r);
	return status;
}
