/* vmtrace check: read a whole trace in seq order and apply the trace rules
 * (traces/vmt_check.c, the same vmreplay applies before it replays). */
#include <inttypes.h>
#include <stdio.h>
#include "analysis/vmtrace.h"
#include "analysis/vmtrace_files.h"
#include "analysis/vmtrace_seqs.h"
#include "vmt.h"

/* How processes ended, when any did otherwise than by exiting. */
static void print_ends(const struct vmt_check_ends *e)
{
	uint64_t odd = e->how[VMT_END_SIGNAL] + e->how[VMT_END_VANISHED] +
	               e->how[VMT_END_UNRECORDED];
	if (!odd && !e->lost)
		return;
	printf("ended: %" PRIu64 " exited, %" PRIu64 " killed by a signal, %" PRIu64
	       " vanished, %" PRIu64 " exec'd an unrecorded program; %" PRIu64 " records lost\n",
	       e->how[VMT_END_EXIT], e->how[VMT_END_SIGNAL], e->how[VMT_END_VANISHED],
	       e->how[VMT_END_UNRECORDED], e->lost);
	for (size_t i = 0; i < e->nodd; i++) {
		const struct vmt_end *x = &e->odd[i];
		if (x->how == VMT_END_SIGNAL)
			printf("pid %d: killed by signal %d\n", x->pid, x->status);
		else if (x->how == VMT_END_VANISHED)
			printf("pid %d: vanished (ended without a word; its last records may be missing)\n",
			       x->pid);
		else
			printf("pid %d: exec'd a program the recorder cannot follow\n", x->pid);
	}
	if (odd > e->nodd)
		printf("... and %" PRIu64 " more\n", odd - e->nodd);
}

/* How the calls that overlapped in time were ordered, when any did. */
static void print_order(const struct vmt_order_stats *o, const struct vmt_header *h)
{
	if (o->unknown)
		printf("order: format %u records no call's end: calls that overlapped in time are in the "
		       "order they began, unproven\n", h->version);
	if (!o->overlapped)
		return;
	printf("order: %" PRIu64 " calls overlapped a call of their process in time; %" PRIu64
	       " went after one that began earlier but could not have happened first\n",
	       o->overlapped, o->reordered);
	if (o->undecided)
		printf("order: %" PRIu64 " calls overlapped one on the same pages that either order "
		       "explains: the order they ended in is a guess\n", o->undecided);
	if (o->near)
		printf("order: %" PRIu64 " calls overlapped one on the same or neighbouring pages: the order "
		       "they took the mmap_lock in, which decides which VMAs merge, is not recorded\n", o->near);
}

/* Seqs no record holds, against what the ENDs count lost: more missing
 * than lost is a record the recorder lost without a word.  A trace with
 * no END (made by a tool, not recorded) is not asked. */
static void print_gaps(struct vmtrace_seqs *h, const struct vmt_check_ends *e)
{
	uint64_t first, lost = e->lost, ends = 0;
	for (int i = 0; i <= VMT_END_UNRECORDED; i++)
		ends += e->how[i];
	if (h->failed || !ends)
		return;
	uint64_t missing = vmtrace_seqs_missing(h, &first);
	if (missing > lost)
		printf("silent loss: %" PRIu64 " seqs no record holds (the first %" PRIu64
		       "), the ENDs count %" PRIu64 " records lost\n", missing, first, lost);
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
	struct vmt_check *c = vmt_check_new(h);
	struct vmt_record rec;
	int ret = 0;
	const char *problem = NULL;
	if (!c)
		problem = "out of memory";
	else if (!vmt_check_version(h))
		problem = "header of another format version";
	struct vmtrace_seqs held = { 0 };
	while (!problem && (ret = vmt_reader_next(r, &rec)) > 0) {
		problem = vmt_check_record(c, &rec);
		vmtrace_seqs_add(&held, &rec);   /* out of memory: not asked */
	}
	int at_end = 0;
	struct vmt_order_stats os;
	vmt_reader_order_stats(r, &os);
	if (!problem && ret >= 0) {
		problem = vmt_check_end(c);
		if (!problem)
			problem = vmt_check_order(c, &os);
		at_end = 1;
	}
	struct vmt_reader_stats st;
	vmt_reader_stats(r, &st);
	int status = 1;
	if (problem && at_end) {
		printf("%s: bad: %s\n", path, problem);
	} else if (problem) {
		printf("%s: bad: %s (record %" PRIu64 ")\n", path, problem, c ? vmt_check_records(c) : 0);
	} else if (ret == VMT_ETRUNCATED) {
		printf("%s: truncated: %" PRIu64 " bytes lost after %" PRIu64
		       " complete chunk%s (%" PRIu64 " events readable)\n",
		       path, st.lost_bytes, st.chunks, st.chunks == 1 ? "" : "s", st.events);
	} else if (ret < 0) {
		printf("%s\n", vmt_reader_error(r));
	} else {
		printf("%s: OK: %" PRIu64 " events, %zu processes, %" PRIu64 " records, %"
		       PRIu64 " chunks, %" PRIu64 " bytes\n",
		       path, st.events, vmt_check_processes(c), st.records, st.chunks, st.file_bytes);
		print_ends(vmt_check_ends(c));
		print_gaps(&held, vmt_check_ends(c));
		print_order(&os, h);
		status = 0;
	}
	vmtrace_seqs_free(&held);
	vmt_check_free(c);
	vmt_reader_close(r);
	return status;
}
