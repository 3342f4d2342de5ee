/* vmt_check.c - the rules of vmt.h's "checking a trace": call numbers,
 * the total seq order, that events belong to a known process and name
 * stacks and files the trace has (in any order: checked at the end), sane
 * maps, checkpoints and residency. */
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include "vmt.h"

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

/* pid -> the seq of its first record, and pid -> the seq of the first
 * successful fork that returned it (open addressing, key pid + 1). */
struct seqmap {
	struct { uint64_t key, seq; } *e;
	size_t cap, n;
};

static size_t seqmap_find(const struct seqmap *m, uint64_t key)
{
	size_t i = slot_of(key, m->cap);
	while (m->e[i].key && m->e[i].key != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* Keeps the first seq of each key; -1 when out of memory. */
static int seqmap_first(struct seqmap *m, int32_t pid, uint64_t seq)
{
	uint64_t key = (uint64_t)(uint32_t)pid + 1;
	if ((m->n + 1) * 2 > m->cap) {
		struct seqmap big = { calloc(m->cap ? m->cap * 2 : 64, sizeof(*m->e)), m->cap ? m->cap * 2 : 64, m->n };
		if (!big.e)
			return -1;
		for (size_t i = 0; i < m->cap; i++)
			if (m->e[i].key)
				big.e[seqmap_find(&big, m->e[i].key)] = m->e[i];
		free(m->e);
		*m = big;
	}
	size_t i = seqmap_find(m, key);
	if (!m->e[i].key) {
		m->e[i].key = key;
		m->e[i].seq = seq;
		m->n++;
	}
	return 0;
}

static uint64_t pid_key(int32_t pid, uint32_t id)
{
	return (uint64_t)(uint32_t)pid << 32 | id;
}

/* RANGES records waiting for their event (written right before it, so
 * few are ever open at once; the oldest make room). */
#define RANGES_OPEN 64

struct vmt_check {
	struct idset procs, stacks, files, stack_refs, file_refs;
	struct { uint64_t seq; int32_t pid; uint32_t kind; } ranges[RANGES_OPEN];
	size_t nranges_seen;
	struct seqmap first, forked;
	uint64_t last_seq, records, page;
	struct vmt_check_ends ends;
	int have_seq;
	char why[320];
};

struct vmt_check *vmt_check_new(const struct vmt_header *h)
{
	struct vmt_check *c = calloc(1, sizeof(*c));
	if (c)
		c->page = h && h->host.page_size ? h->host.page_size : VMT_PAGE;
	return c;
}

static const char *check_map(struct vmt_check *c, const struct vmt_map *m)
{
	for (uint32_t i = 0; i < m->nvma; i++) {
		const struct vmt_vma *v = &m->vmas[i];
		if (v->start >= v->end)
			return "memory map with an empty or inverted VMA";
		if ((v->start | v->end) & (c->page - 1))
			return "memory map with a VMA that is not page-aligned";
		if (i && v->start < m->vmas[i - 1].end)
			return "memory map with overlapping or unsorted VMAs";
		if (v->file_id && idset_add(&c->file_refs, pid_key(m->pid, v->file_id)) < 0)
			return "out of memory";
	}
	return NULL;
}

static const char *check_ranges(struct vmt_check *c, const struct vmt_ranges *r)
{
	if (r->kind < VMT_RANGES_IOVEC || r->kind > VMT_RANGES_NODEMASK)
		return "ranges record of an unknown kind";
	int none = r->kind == VMT_RANGES_VMA_NAME || r->kind == VMT_RANGES_NODEMASK;
	if (none ? r->n != 0 : r->n == 0)
		return none ? "ranges record of a name or nodemask with ranges" : "ranges record without a range";
	if ((r->kind == VMT_RANGES_UFFDIO_REGISTER || r->kind == VMT_RANGES_UFFDIO_RANGE) && r->n != 1)
		return "ranges record of a uffd range with more than one range";
	for (uint32_t i = 0; i < r->n; i++)
		if (r->ranges[i].len > UINT64_MAX - r->ranges[i].start)
			return "ranges record with a range past the end of the address space";
	size_t at = c->nranges_seen++ % RANGES_OPEN;
	c->ranges[at].seq = r->seq;
	c->ranges[at].pid = r->pid;
	c->ranges[at].kind = r->kind;
	return NULL;
}

/* The RANGES record written for this event, if one was: it must be of
 * the kind the event's row reads. */
static const char *event_ranges(struct vmt_check *c, const struct vmt_event *ev)
{
	for (size_t i = 0; i < RANGES_OPEN; i++) {
		if (!c->ranges[i].kind || c->ranges[i].seq != ev->seq || c->ranges[i].pid != ev->pid)
			continue;
		uint32_t kind = c->ranges[i].kind;
		c->ranges[i].kind = 0;
		if (kind != (uint32_t)vmt_sys_ranges(ev->sys)) {
			snprintf(c->why, sizeof(c->why), "event seq %" PRIu64 " (%s, pid %d) has a ranges record "
			         "of kind %u, not the kind its call reads", ev->seq, vmt_sys_name(ev->sys), ev->pid, kind);
			return c->why;
		}
	}
	return NULL;
}

static const char *check_event(struct vmt_check *c, const struct vmt_event *ev)
{
	if (ev->sys == VMT_SYS_NONE || ev->sys >= VMT_SYS_COUNT)
		return "event with an unknown system call";
	if (!idset_has(&c->procs, (uint32_t)ev->pid)) {
		snprintf(c->why, sizeof(c->why), "event seq %" PRIu64 " (%s) of pid %d, which has no process record",
		         ev->seq, vmt_sys_name(ev->sys), ev->pid);
		return c->why;
	}
	if (ev->err < 0 || ev->err > VMT_MAX_ERRNO)
		return "event with an impossible errno";
	const char *bad = event_ranges(c, ev);
	if (bad)
		return bad;
	/* the order: an event comes after every event that ended before it
	 * began, so one that began earlier than one before it must have been
	 * running when that one began (docs/trace-format.md, "Order") */
	uint64_t end = ev->seq_end > ev->seq ? ev->seq_end : ev->seq + 1;
	if (c->have_seq && ev->seq <= c->last_seq && end <= c->last_seq) {
		snprintf(c->why, sizeof(c->why), "event seq %" PRIu64 " (%s, pid %d tid %d) out of order: it ended (seq %"
		         PRIu64 ") before seq %" PRIu64 ", which comes earlier, began", ev->seq, vmt_sys_name(ev->sys),
		         ev->pid, ev->tid, end, c->last_seq);
		return c->why;
	}
	if (c->have_seq && ev->seq == c->last_seq) {
		snprintf(c->why, sizeof(c->why), "event seq %" PRIu64 " (%s, pid %d tid %d) used twice", ev->seq,
		         vmt_sys_name(ev->sys), ev->pid, ev->tid);
		return c->why;
	}
	if (!c->have_seq || ev->seq > c->last_seq)
		c->last_seq = ev->seq;
	c->have_seq = 1;
	/* not vfork (nor clone with CLONE_VFORK): the parent's call returns
	 * after the child ran to its exec or exit, and the child's records may
	 * come first */
	int forks = ev->sys == VMT_SYS_FORK ||
	            ((ev->sys == VMT_SYS_CLONE || ev->sys == VMT_SYS_CLONE3) && !(ev->flags & VMT_EV_THREAD) &&
	             !(ev->args[0] & CLONE_VFORK));
	if (seqmap_first(&c->first, ev->pid, ev->seq) < 0 ||
	    (forks && !ev->err && ev->result > 0 && ev->result <= INT32_MAX &&
	     seqmap_first(&c->forked, (int32_t)ev->result, ev->seq) < 0))
		return "out of memory";
	if ((ev->stack_id && idset_add(&c->stack_refs, pid_key(ev->pid, ev->stack_id)) < 0) ||
	    (ev->file_id && idset_add(&c->file_refs, pid_key(ev->pid, ev->file_id)) < 0))
		return "out of memory";
	return NULL;
}

const char *vmt_check_record(struct vmt_check *c, const struct vmt_record *rec)
{
	c->records++;
	switch (rec->type) {
	case VMT_REC_PROCESS:
		return idset_add(&c->procs, (uint32_t)rec->u.process.pid) < 0 ||
		       seqmap_first(&c->first, rec->u.process.pid, rec->u.process.seq) < 0 ? "out of memory" : NULL;
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
	case VMT_REC_EVENT:
		return check_event(c, &rec->u.event);
	case VMT_REC_RANGES:
		return check_ranges(c, &rec->u.ranges);
	case VMT_REC_MAP:
		return check_map(c, &rec->u.map);
	case VMT_REC_CHECKPOINT:
		if (rec->u.checkpoint.reason < VMT_CK_START || rec->u.checkpoint.reason > VMT_CK_FORK)
			return "checkpoint with an unknown reason";
		if (rec->u.checkpoint.recorder_vmas > rec->u.checkpoint.vma_count)
			return "checkpoint with more recorder VMAs than VMAs";
		return NULL;
	case VMT_REC_RESIDENCY: {
		const struct vmt_residency *r = &rec->u.residency;
		if (r->npages == 0)
			return "empty residency record";
		if (r->start & (c->page - 1))
			return "residency record whose start is not page-aligned";
		/* the pages must fit below the top of the address space */
		if (r->npages > (UINT64_MAX - r->start) / c->page)
			return "residency record past the end of the address space";
		return NULL;
	}
	case VMT_REC_END: {
		const struct vmt_end *e = &rec->u.end;
		if (e->how > VMT_END_UNRECORDED)
			return "end record with an unknown way of ending";
		c->ends.how[e->how]++;
		c->ends.lost += e->lost;
		if (e->how != VMT_END_EXIT && c->ends.nodd < VMT_CHECK_ODD)
			c->ends.odd[c->ends.nodd++] = *e;
		return NULL;
	}
	default:
		return NULL;
	}
}

const char *vmt_check_end(struct vmt_check *c)
{
	/* a child's records come after the fork that made it: a replay
	 * starts the child there and would wait for them forever */
	for (size_t i = 0; i < c->forked.cap; i++) {
		uint64_t key = c->forked.e[i].key;
		if (!key || !c->first.cap)
			continue;
		size_t j = seqmap_find(&c->first, key);
		if (c->first.e[j].key && c->first.e[j].seq < c->forked.e[i].seq) {
			snprintf(c->why, sizeof(c->why), "pid %d has a record at seq %" PRIu64
			         ", before the fork that makes it (event seq %" PRIu64 ")",
			         (int32_t)(key - 1), c->first.e[j].seq, c->forked.e[i].seq);
			return c->why;
		}
	}
	struct { const char *what; const struct idset *refs, *defs; } kinds[] = {
		{ "stack", &c->stack_refs, &c->stacks },
		{ "file", &c->file_refs, &c->files },
	};
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < kinds[k].refs->cap; i++) {
			uint64_t key = kinds[k].refs->slots[i];
			if (key && !idset_has(kinds[k].defs, key)) {
				snprintf(c->why, sizeof(c->why), "pid %d refers to %s %u, which the trace does not have",
				         (int32_t)(key >> 32), kinds[k].what, (uint32_t)key);
				return c->why;
			}
		}
	return NULL;
}

/* "event seq 12 (pid 3 tid 4 mmap)", or what made the initial map */
static void name_call(char *buf, size_t len, const struct vmt_order_call *k, int pid)
{
	if (k->sys == VMT_SYS_NONE)
		snprintf(buf, len, "the initial map (seq %" PRIu64 ")", k->seq);
	else if (pid)
		snprintf(buf, len, "event seq %" PRIu64 " (pid %d tid %d %s)", k->seq, k->pid, k->tid,
		         vmt_sys_name(k->sys));
	else
		snprintf(buf, len, "event seq %" PRIu64 " (tid %d %s)", k->seq, k->tid, vmt_sys_name(k->sys));
}

const char *vmt_check_order(struct vmt_check *c, const struct vmt_order_stats *st)
{
	if (!st->impossible)
		return NULL;
	const struct vmt_order_conflict *x = &st->conflicts[0];
	char call[96], with[96], more[64] = "";
	name_call(call, sizeof call, &x->call, 1);
	name_call(with, sizeof with, &x->with, 0);
	if (st->impossible > 1)
		snprintf(more, sizeof more, "; %" PRIu64 " such calls", st->impossible);
	switch (x->verdict) {
	case VMT_ORDER_MAPPED:
		snprintf(c->why, sizeof(c->why), "%s was given %#" PRIx64 "-%#" PRIx64 ", which %s had mapped, in every "
		         "order the calls' times allow%s", call, x->start, x->end, with, more);
		break;
	case VMT_ORDER_UNMAPPED:
		snprintf(c->why, sizeof(c->why), "%s succeeded on %#" PRIx64 "-%#" PRIx64 ", which was not mapped "
		         "then%s", call, x->start, x->end, more);
		break;
	default:
		snprintf(c->why, sizeof(c->why), "%s returned %#" PRIx64 " where the break was %#" PRIx64 " (%s)%s",
		         call, x->start, x->brk, with, more);
		break;
	}
	return c->why;
}

size_t vmt_check_processes(const struct vmt_check *c)
{
	return c->procs.n + (size_t)c->procs.has_zero;
}

uint64_t vmt_check_records(const struct vmt_check *c)
{
	return c->records;
}

void vmt_check_free(struct vmt_check *c)
{
	if (!c)
		return;
	free(c->procs.slots);
	free(c->stacks.slots);
	free(c->files.slots);
	free(c->stack_refs.slots);
	free(c->file_refs.slots);
	free(c->first.e);
	free(c->forked.e);
	free(c);
}

const struct vmt_check_ends *vmt_check_ends(const struct vmt_check *c)
{
	return &c->ends;
}

int vmt_check_version(const struct vmt_header *h)
{
	return h->version >= VMT_FORMAT_OLDEST && h->version <= VMT_FORMAT_VERSION;
}

int vmt_check_file(const char *path, char *msg, size_t len)
{
	struct vmt_reader_prefs prefs = { .order = VMT_ORDER_SEQ };
	int err;
	struct vmt_reader *r = vmt_reader_open(path, &prefs, &err);
	if (!r) {
		snprintf(msg, len, "%s", vmt_reader_open_error());
		return -1;
	}
	const struct vmt_header *h = vmt_reader_header(r);
	struct vmt_check *c = vmt_check_new(h);
	struct vmt_record rec;
	const char *problem = NULL;
	int ret = 0, status = -1;
	if (!c)
		snprintf(msg, len, "%s: out of memory", path);
	else if (!vmt_check_version(h))
		snprintf(msg, len, "%s: bad: header of another format version", path);
	else {
		while ((ret = vmt_reader_next(r, &rec)) > 0 && !(problem = vmt_check_record(c, &rec)))
			;
		if (problem)
			snprintf(msg, len, "%s: bad: %s (record %" PRIu64 ")", path, problem, vmt_check_records(c));
		else if (ret < 0) {
			snprintf(msg, len, "%s", vmt_reader_error(r));
			status = ret == VMT_ENOMEM || ret == VMT_EIO ? -1 : 1;
		}
		else if ((problem = vmt_check_end(c)))
			snprintf(msg, len, "%s: bad: %s", path, problem);
		else {
			struct vmt_order_stats os;
			vmt_reader_order_stats(r, &os);
			if ((problem = vmt_check_order(c, &os)))
				snprintf(msg, len, "%s: bad: %s", path, problem);
			else
				status = 0;
		}
	}
	vmt_check_free(c);
	vmt_reader_close(r);
	return status;
}
