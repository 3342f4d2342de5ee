/* vmreport_events.c - per_event rows in a temporary file and read back.
 * A row on disk: a fixed head (struct head), then its call with its NUL,
 * its model's names and values, and its cited rules; names are numbers in
 * the results' word list, which stays in memory.  The file is this
 * process's own (unlinked, mode 0600): nothing else reads it. */
#include "analysis/vmreport_events.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/vmreport_results.h"
#include "lib/errmsg.h"

/* ---- arena ----------------------------------------------------------- */

struct rep_chunk {
	struct rep_chunk *next;
	size_t used, size;
	_Alignas(max_align_t) char data[];
};

void *rep_arena_alloc(struct rep_arena *a, size_t n)
{
	struct rep_chunk *c = a->chunks;
	size_t at = c ? (c->used + 15) & ~(size_t)15 : 0;
	if (!c || at > c->size || c->size - at < n) {
		size_t size = n > (1u << 16) ? n : (1u << 16);
		if (!(c = malloc(sizeof(*c) + size)))
			return NULL;
		*c = (struct rep_chunk){ .next = a->chunks, .size = size };
		a->chunks = c;
		at = 0;
	}
	c->used = at + n;
	return c->data + at;
}

const char *rep_arena_str(struct rep_arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = rep_arena_alloc(a, n);
	return p ? memcpy(p, s, n) : NULL;
}

void rep_arena_free(struct rep_arena *a)
{
	for (struct rep_chunk *c = a->chunks, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	a->chunks = NULL;
}

/* ---- the file -------------------------------------------------------- */

struct head {
	int64_t i, vma_count, pid;
	int32_t err;
	uint32_t op, outcome, rule;
	uint32_t call_len;          /* with its NUL; 0: no call */
	uint16_t nmodel, ncited;    /* nmodel 0xffff: no "model" at all */
};
#define NO_MODEL 0xffff
#define BUF_SIZE (1u << 20)

static size_t rec_size(const struct head *h)
{
	size_t nm = h->nmodel == NO_MODEL ? 0 : h->nmodel;
	return sizeof(*h) + h->call_len + nm * (sizeof(uint32_t) + sizeof(int64_t)) +
	       h->ncited * sizeof(uint32_t);
}

static const char *tmp_dir(void)
{
	const char *d = getenv("TMPDIR");
	return d && *d ? d : "/tmp";
}

/* An unlinked file of our own in TMPDIR: -1 with a message. */
static int open_tmp(char *err, size_t errlen)
{
	const char *dir = tmp_dir();
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {	/* a file system without O_TMPFILE */
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/vmreport-rows.XXXXXX", dir);
		fd = mkostemp(path, O_CLOEXEC);
		if (fd >= 0)
			unlink(path);
	}
	if (fd < 0)
		errmsg(err, errlen, "cannot make a temporary file for the per_event rows in %s: %s",
		       dir, strerror(errno));
	return fd;
}

static int write_all(int fd, const char *p, size_t n, char *err, size_t errlen)
{
	while (n) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return errmsg(err, errlen, "cannot keep the per_event rows in %s: %s", tmp_dir(),
				      k < 0 ? strerror(errno) : "short write");
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static int flush(struct rep_spill *s, char *err, size_t errlen)
{
	if (write_all(s->fd, s->buf, s->len, err, errlen))
		return -1;
	s->size += (off_t)s->len;
	s->len = 0;
	return 0;
}

int rep_spill_add(struct rep_spill *s, const struct rep_event_row *row, char *err, size_t errlen)
{
	struct head h = {
		.i = row->i, .vma_count = row->vma_count, .pid = row->pid, .err = row->err,
		.op = row->op, .outcome = row->outcome, .rule = row->rule,
		.call_len = row->call ? (uint32_t)strnlen(row->call, UINT32_MAX - 1) + 1 : 0,
		.nmodel = row->has_model ? (uint16_t)row->nmodel : NO_MODEL,
		.ncited = row->has_model ? (uint16_t)row->ncited : 0,
	};
	size_t need = rec_size(&h);
	if (!s->open) {
		if (!s->buf && !(s->buf = malloc(BUF_SIZE)))
			return errmsg(err, errlen, "out of memory");
		if ((s->fd = open_tmp(err, errlen)) < 0)
			return -1;
		s->open = true;
		s->last_i = row->i;
	}
	if (row->i < s->last_i)
		s->unsorted = true;
	s->last_i = row->i;
	if (s->len + need > BUF_SIZE && s->len && flush(s, err, errlen))
		return -1;
	char *big = NULL, *p = s->buf + s->len;
	if (need > BUF_SIZE && !(p = big = malloc(need)))	/* a call of over a megabyte */
		return errmsg(err, errlen, "out of memory");
	char *q = p;
	memcpy(q, &h, sizeof(h));
	q += sizeof(h);
	if (h.call_len) {
		memcpy(q, row->call, h.call_len - 1);
		q[h.call_len - 1] = 0;
		q += h.call_len;
	}
	for (unsigned k = 0; h.nmodel != NO_MODEL && k < h.nmodel; k++) {
		int64_t v = row->model_v[k];
		memcpy(q, &row->model_name[k], sizeof(uint32_t));
		memcpy(q + sizeof(uint32_t), &v, sizeof(v));
		q += sizeof(uint32_t) + sizeof(v);
	}
	memcpy(q, row->cited, h.ncited * sizeof(uint32_t));
	if (big) {
		int rc = write_all(s->fd, big, need, err, errlen);
		free(big);
		if (rc)
			return -1;
		s->size += (off_t)need;
	} else {
		s->len += need;
	}
	return 0;
}

/* Where each row starts in the file, with its event index. */
struct place {
	int64_t i;
	size_t at;	/* ascending in file order: ties keep it */
};

static int by_event(const void *a, const void *b)
{
	const struct place *x = a, *y = b;
	if (x->i != y->i)
		return (x->i > y->i) - (x->i < y->i);
	return (x->at > y->at) - (x->at < y->at);
}

static int read_at(int fd, char *p, size_t n, off_t off)
{
	while (n) {
		ssize_t k = pread(fd, p, n, off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
		off += k;
	}
	return 0;
}

/* Rows that came out of event order (a file vmreplay did not write: it
 * writes them in order) are read into memory, sorted and written again. */
static int sort_rows(struct rep_spill *s, char *err, size_t errlen)
{
	size_t size = (size_t)s->size, n = 0, cap = 1024;
	char *all = malloc(size ? size : 1);
	struct place *pl = malloc(cap * sizeof(*pl));
	int rc = -1, fd = -1;
	if (!all || !pl) {
		errmsg(err, errlen, "out of memory");
		goto out;
	}
	if (read_at(s->fd, all, size, 0)) {
		errmsg(err, errlen, "cannot read back the per_event rows: %s", strerror(errno ? errno : EIO));
		goto out;
	}
	for (size_t at = 0, len; at < size; at += len) {
		struct head h;
		memcpy(&h, all + at, sizeof(h));	/* rows are not aligned */
		len = rec_size(&h);
		if (n == cap) {
			struct place *np = realloc(pl, (cap *= 2) * sizeof(*pl));
			if (!np) {
				errmsg(err, errlen, "out of memory");
				goto out;
			}
			pl = np;
		}
		pl[n++] = (struct place){ h.i, at };
	}
	qsort(pl, n, sizeof(*pl), by_event);
	if ((fd = open_tmp(err, errlen)) < 0)
		goto out;
	s->len = 0;
	for (size_t k = 0; k < n; k++) {
		struct head h;
		memcpy(&h, all + pl[k].at, sizeof(h));
		size_t len = rec_size(&h);
		if (s->len + len > BUF_SIZE && s->len) {
			if (write_all(fd, s->buf, s->len, err, errlen))
				goto out;
			s->len = 0;
		}
		if (len > BUF_SIZE) {
			if (write_all(fd, all + pl[k].at, len, err, errlen))
				goto out;
			continue;
		}
		memcpy(s->buf + s->len, all + pl[k].at, len);
		s->len += len;
	}
	if (write_all(fd, s->buf, s->len, err, errlen))
		goto out;
	s->len = 0;
	close(s->fd);
	s->fd = fd;
	fd = -1;
	s->unsorted = false;
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	free(all);
	free(pl);
	return rc;
}

int rep_spill_end(struct rep_spill *s, char *err, size_t errlen)
{
	if (!s->open)
		return 0;
	if (s->len && flush(s, err, errlen))
		return -1;
	if (s->unsorted && sort_rows(s, err, errlen))
		return -1;
	free(s->buf);	/* the cursors have their own */
	s->buf = NULL;
	return 0;
}

void rep_spill_free(struct rep_spill *s)
{
	if (s->open)
		close(s->fd);
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

/* ---- cursors --------------------------------------------------------- */

void rep_cursor_open(struct rep_cursor *c, const struct rep_results *r)
{
	memset(c, 0, sizeof(*c));
	c->r = r;
}

void rep_cursor_close(struct rep_cursor *c)
{
	free(c->buf);
	memset(c, 0, sizeof(*c));
}

/* N unread bytes in the buffer; false at the end of the file. */
static bool fill(struct rep_cursor *c, size_t n)
{
	const struct rep_spill *s = &c->r->spill;
	while (c->end - c->at < n) {
		if (c->off >= s->size)
			return false;
		if (c->at) {
			memmove(c->buf, c->buf + c->at, c->end - c->at);
			c->end -= c->at;
			c->at = 0;
		}
		size_t want = n > (1u << 16) ? n : (1u << 16);
		if (want > c->cap) {
			char *nb = realloc(c->buf, want);
			if (!nb) {
				fprintf(stderr, "vmreport: out of memory\n");
				exit(1);
			}
			c->buf = nb;
			c->cap = want;
		}
		size_t len = c->cap - c->end;
		if ((off_t)len > s->size - c->off)
			len = (size_t)(s->size - c->off);
		if (read_at(s->fd, c->buf + c->end, len, c->off)) {
			fprintf(stderr, "vmreport: %s: cannot read back its per_event rows: %s\n",
				c->r->path, strerror(errno ? errno : EIO));
			exit(1);
		}
		c->end += len;
		c->off += (off_t)len;
	}
	return true;
}

static const char *word(const struct rep_results *r, uint32_t w)
{
	return w && w <= r->nwords ? r->words[w - 1] : NULL;
}

const struct rep_event *rep_cursor_next(struct rep_cursor *c)
{
	struct head h;
	if (!c->r->spill.open || !fill(c, sizeof(h)))
		return NULL;
	memcpy(&h, c->buf + c->at, sizeof(h));
	size_t len = rec_size(&h);
	if (!fill(c, len)) {
		fprintf(stderr, "vmreport: %s: its per_event rows end early\n", c->r->path);
		exit(1);
	}
	const char *p = c->buf + c->at + sizeof(h);
	c->at += len;
	struct rep_event *ev = &c->ev;
	*ev = (struct rep_event){
		.i = h.i, .vma_count = h.vma_count, .pid = h.pid, .err = h.err,
		.op = word(c->r, h.op), .outcome = word(c->r, h.outcome), .rule = word(c->r, h.rule),
		.call = h.call_len ? p : NULL,
	};
	p += h.call_len;
	if (h.nmodel == NO_MODEL)
		return ev;
	for (unsigned k = 0; k < h.nmodel; k++) {
		uint32_t name;
		int64_t v;
		memcpy(&name, p, sizeof(name));
		memcpy(&v, p + sizeof(name), sizeof(v));
		p += sizeof(name) + sizeof(v);
		c->model[k] = (struct rep_count){ word(c->r, name), v };
	}
	for (unsigned k = 0; k < h.ncited; k++, p += sizeof(uint32_t)) {
		uint32_t w;
		memcpy(&w, p, sizeof(w));
		c->cited[k] = word(c->r, w);
	}
	ev->model = c->model;
	ev->nmodel = h.nmodel;
	ev->cited = c->cited;
	ev->ncited = h.ncited;
	return ev;
}

struct rep_event *rep_event_keep(struct rep_arena *a, const struct rep_event *ev)
{
	struct rep_event *k = rep_arena_alloc(a, sizeof(*k));
	if (!k)
		return NULL;
	*k = *ev;
	if (ev->call && !(k->call = rep_arena_str(a, ev->call)))
		return NULL;
	struct rep_count *m = ev->model ? rep_arena_alloc(a, (ev->nmodel + 1) * sizeof(*m)) : NULL;
	const char **ci = ev->cited ? rep_arena_alloc(a, (ev->ncited + 1) * sizeof(*ci)) : NULL;
	if ((ev->model && !m) || (ev->cited && !ci))
		return NULL;
	if (m)
		k->model = memcpy(m, ev->model, ev->nmodel * sizeof(*m));
	if (ci)
		k->cited = memcpy(ci, ev->cited, ev->ncited * sizeof(*ci));
	return k;
}
