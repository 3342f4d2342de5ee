/* vmt_merge.c - seq order: index every good chunk (offset, size, first
 * seq), open chunks in first-seq order as the merge reaches them, and merge
 * their records by (key, file offset) with a min-heap. */
#include <stdlib.h>
#include <string.h>
#include "vmt_reader_int.h"

static int cmp_ref(const void *a, const void *b)
{
	const struct chunk_ref *x = a, *y = b;
	if (x->first_seq != y->first_seq)
		return x->first_seq < y->first_seq ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static void set_next_first(struct vmt_reader *r)
{
	r->next_first = r->next_index < r->nindex ?
	                r->index[r->next_index].first_seq : UINT64_MAX;
}

/* Index every good chunk: offset, size and first seq, 24 bytes per chunk
 * (a 64 KiB chunk holds thousands of events).  Every chunk is checked
 * whole here, so damage is skipped the same way as in file order. */
int vmt_rd_build_index(struct vmt_reader *r)
{
	struct vmt_cursor *c = &r->one;
	size_t cap = 0;
	int ret;

	while ((ret = vmt_rd_next_chunk(r, c, 0, r->scan_msg)) == 1) {
		if (r->nindex == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct chunk_ref *n = realloc(r->index, ncap * sizeof(*n));
			if (!n)
				return FAIL(r, VMT_ENOMEM, "out of memory for the chunk index");
			r->index = n;
			cap = ncap;
		}
		r->index[r->nindex].off = r->off;
		r->index[r->nindex].size = c->size;
		r->index[r->nindex].first_seq = c->key;
		r->nindex++;
		r->off += c->size;
		r->st.good_bytes += c->size;
	}
	vmt_cursor_free(c);
	if (ret == VMT_EIO || ret == VMT_ENOMEM) {
		memcpy(r->msg, r->scan_msg, MSG_SIZE);
		return r->status = ret;
	}
	if (ret == VMT_ETRUNCATED)
		r->scan_lost = r->size - r->off;
	r->scan_lost += r->damaged;
	if (ret == 0 && r->damaged)
		ret = vmt_rd_damage_error(r, r->scan_msg);
	r->scan_status = ret;
	if (r->nindex)
		qsort(r->index, r->nindex, sizeof(*r->index), cmp_ref);
	set_next_first(r);
	return 0;
}

static inline int before(const struct heap_ent *a, const struct heap_ent *b)
{
	return a->key < b->key || (a->key == b->key && a->ordinal < b->ordinal);
}

static inline void sift_down(struct vmt_reader *r, size_t i)
{
	struct heap_ent *h = r->heap;
	size_t n = r->nheap;

	for (;;) {
		size_t l = 2 * i + 1, m;
		struct heap_ent t;
		if (l >= n)
			return;
		m = before(&h[l], &h[i]) ? l : i;
		if (l + 1 < n && before(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void sift_up(struct vmt_reader *r, size_t i)
{
	struct heap_ent *h = r->heap;

	while (i && before(&h[i], &h[(i - 1) / 2])) {
		struct heap_ent t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void heap_pop(struct vmt_reader *r)
{
	r->pool[r->npool++] = r->heap[0].c;
	r->heap[0] = r->heap[--r->nheap];
	sift_down(r, 0);
}

/* Load the next indexed chunk and put it on the heap. */
static int open_next_chunk(struct vmt_reader *r)
{
	const struct chunk_ref *ref = &r->index[r->next_index++];
	struct vmt_cursor *c;
	int ret;

	set_next_first(r);
	if (r->nheap >= VMT_MAX_OPEN_CHUNKS)
		return FAIL(r, VMT_ECORRUPT,
		            "more than %d chunks overlap in seq at byte %llu; read it in file order",
		            VMT_MAX_OPEN_CHUNKS, (unsigned long long)ref->off);
	if (r->npool) {
		c = r->pool[--r->npool];
	} else if (!(c = calloc(1, sizeof(*c)))) {
		return FAIL(r, VMT_ENOMEM, "out of memory");
	}
	ret = vmt_rd_load_chunk(r, c, ref->off, ref->size, ref->off);
	if (ret == 0 && (ret = vmt_cursor_step(c, &c->cur)) < 0)
		vmt_rd_step_error(r, ret, c);
	if (ret <= 0) {
		r->pool[r->npool++] = c;
		return ret;
	}
	r->heap[r->nheap].key = c->key;
	r->heap[r->nheap].ordinal = c->ordinal;
	r->heap[r->nheap].c = c;
	sift_up(r, r->nheap++);
	return 0;
}

/* Keep a record decoded into the caller's buffer in its cursor. */
static void stash(struct vmt_record *dst, const struct vmt_record *src)
{
	dst->type = src->type;
	if (src->type == VMT_REC_EVENT)
		dst->u.event = src->u.event;
	else
		*dst = *src;
}

int vmt_rd_next_seq_order(struct vmt_reader *r, struct vmt_record *rec)
{
	struct vmt_cursor *c;

	if (r->last) {
		/* a single open chunk (one thread at a time) decodes straight
		 * into the caller's record; keep it there unless the next chunk
		 * must open first */
		int alone = r->nheap == 1;
		int ret;

		c = r->last;
		ret = vmt_cursor_step(c, alone ? rec : &c->cur);
		if (ret < 0)
			return vmt_rd_step_error(r, ret, c);
		if (ret == 0) {
			heap_pop(r);
		} else {
			r->heap[0].key = c->key;
			if (alone && c->key < r->next_first) {
				r->st.events += rec->type == VMT_REC_EVENT;
				r->st.records++;
				return 1;
			}
			if (alone)
				stash(&c->cur, rec);
			else
				sift_down(r, 0);
		}
		r->last = NULL;
	}
	/* next_first is ~0 after the last chunk (a chunk starting at seq ~0
	 * also opens once the heap is empty) */
	while (r->next_index < r->nindex && (!r->nheap || r->next_first <= r->heap[0].key)) {
		int ret = open_next_chunk(r);
		if (ret < 0)
			return ret;
	}
	if (!r->nheap) {
		if (r->scan_status) {
			memcpy(r->msg, r->scan_msg, MSG_SIZE);
			r->st.lost_bytes = r->scan_lost;
		}
		return r->status = r->scan_status;
	}
	c = r->last = r->heap[0].c;
	vmt_rd_deliver(r, rec, &c->cur);
	return 1;
}
