/* vmt_chunks.c - find the reader's next good chunk, check it whole, and
 * skip damaged stretches (a chunk cut short by a killed writer) to the next
 * chunk that checks out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vmt_reader_int.h"

int vmt_rd_read_at(struct vmt_reader *r, uint64_t off, void *buf, size_t len)
{
	size_t done = 0;
	while (done < len) {
		ssize_t n = pread(r->fd, (char *)buf + done, len - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return vmt_rd_set_error(r->msg, r->path, VMT_EIO, "read at byte %llu: %s",
			                 (unsigned long long)(off + done),
			                 n < 0 ? strerror(errno) : "the file shrank");
		done += (size_t)n;
	}
	return 0;
}

static int reserve(uint8_t **buf, size_t *cap, uint64_t n)
{
	uint8_t *p;
	if (n <= *cap)
		return 0;
	p = realloc(*buf, (size_t)n);
	if (!p)
		return VMT_ENOMEM;
	*buf = p;
	*cap = (size_t)n;
	return 0;
}

/* Describe frame problem f at r->off in msg; returns the error code. */
static int frame_error(struct vmt_reader *r, const struct vmt_frame *f, char *msg)
{
	switch (f->kind) {
	case VMT_FRAME_TRUNCATED:
		return vmt_rd_set_error(msg, r->path, VMT_ETRUNCATED,
		                 "truncated: the last %llu bytes (an incomplete chunk at byte %llu) were lost",
		                 (unsigned long long)(r->size - r->off),
		                 (unsigned long long)r->off);
	case VMT_FRAME_HEADER:
		return vmt_rd_set_error(msg, r->path, VMT_ECORRUPT,
		                 "a second header at byte %llu (concatenated traces?)",
		                 (unsigned long long)r->off);
	case VMT_FRAME_VERSION:
		return vmt_rd_set_error(msg, r->path, VMT_EVERSION,
		                 "a frame of format version %u at byte %llu (this reader reads versions %d to %d)",
		                 f->version, (unsigned long long)r->off, VMT_FORMAT_OLDEST,
		                 VMT_FORMAT_VERSION);
	}
	return vmt_rd_set_error(msg, r->path, VMT_ECORRUPT, "corrupt at byte %llu: %s",
	                 (unsigned long long)r->off, f->why ? f->why : "bad frame");
}

/* Look at the frame at r->off, skipping foreign skippable frames. */
static int peek(struct vmt_reader *r, struct vmt_frame *f)
{
	for (;;) {
		uint8_t head[VMT_FRAME_PEEK];
		uint64_t remaining = r->size - r->off;
		size_t n = remaining < sizeof(head) ? (size_t)remaining : sizeof(head);
		int ret = vmt_rd_read_at(r, r->off, head, n);

		if (ret)
			return ret;
		vmt_frame_peek(head, n, remaining, f);
		if (f->kind != VMT_FRAME_OTHER)
			return 0;
		r->off += f->size;
	}
}

/* Read the chunk of size bytes at off into c and check it whole (frame
 * checksum, LZ4 frame, content checksum): 0, VMT_ECORRUPT with *why,
 * VMT_ENOMEM or VMT_EIO. */
static int try_load(struct vmt_reader *r, struct vmt_cursor *c, uint64_t off,
                    uint64_t size, uint64_t ordinal, const char **why)
{
	struct vmt_frame f;
	int ret;

	if (reserve(&c->raw, &c->raw_cap, size))
		return VMT_ENOMEM;
	if ((ret = vmt_rd_read_at(r, off, c->raw, (size_t)size)))
		return ret;
	vmt_frame_at(c->raw, size, 0, &f);
	if (f.kind != VMT_FRAME_CHUNK || f.size != size) {
		*why = f.why ? f.why : "the chunk changed while reading";
		return VMT_ECORRUPT;
	}
	c->offset = off;
	c->size = size;
	ret = vmt_cursor_load(c, &f.chunk, ordinal);
	if (ret == VMT_ECORRUPT)
		*why = c->why ? c->why : "bad data";
	return ret;
}

/* The bytes [r->off, ...) do not hold a good chunk: find the next one that
 * does (a chunk cut short by a killed writer or a full disk, with other
 * writers' chunks after it), or the end of the file. */
static int resync(struct vmt_reader *r, struct vmt_cursor *c, const char *why)
{
	/* the version byte (offset 4) is compared apart: any version read */
	static const uint8_t sig[12] = { 'V', 'M', 'R', 'C', 0, 0, 0, 0, VMT_KIND_CHUNK, 0, 0, 0 };
	uint8_t win[65536];
	uint64_t bad = r->off, pos = r->off + 1;
	int tries = 0;

	if (!r->damages++) {
		r->damage_at = bad;
		snprintf(r->damage_why, sizeof(r->damage_why), "%s", why);
	}
	/* real damage is rare and the signature is 16 bytes: a file that needs
	 * more looking than this was made to, and the rest counts as damaged */
	if (r->damages > RESYNC_MAX_PLACES)
		pos = r->size;
	while (pos + VMT_CHUNK_PREFIX <= r->size && tries < RESYNC_MAX_TRIES) {
		size_t n = r->size - pos < sizeof(win) ? (size_t)(r->size - pos) : sizeof(win);
		int ret = vmt_rd_read_at(r, pos, win, n);
		if (ret)
			return ret;
		for (size_t i = 0; i + VMT_SKIP_HDR + sizeof(sig) <= n; i++) {
			struct vmt_frame f;
			const char *w;
			const uint8_t *v = win + i + VMT_SKIP_HDR + 4;
			if (win[i] != 0x5E || memcmp(win + i + VMT_SKIP_HDR, sig, 4) ||
			    memcmp(v + 1, sig + 5, sizeof(sig) - 5) ||
			    *v < VMT_FORMAT_OLDEST || *v > VMT_FORMAT_VERSION ||
			    vmt_get32(win + i) != LZ4F_SKIP_MAGIC)
				continue;
			if (++tries > RESYNC_MAX_TRIES)
				break;
			r->off = pos + i;
			if ((ret = peek(r, &f)))
				return ret;
			if (f.kind == VMT_FRAME_TRUNCATED ||
			    (f.kind == VMT_FRAME_CHUNK &&
			     (ret = try_load(r, c, r->off, f.size, 0, &w)) != VMT_ECORRUPT)) {
				if (ret && ret != VMT_ECORRUPT)
					return ret;
				r->damaged += r->off - bad;
				return 0;
			}
		}
		pos += n - (VMT_SKIP_HDR + sizeof(sig) - 1);
	}
	r->off = r->size;
	r->damaged += r->size - bad;
	return 0;
}

/* Find the next good chunk from r->off on and load it into c: 1, 0 at the
 * end, or an error described in msg.  Damaged stretches are skipped and
 * counted; the caller reports them at the end. */
int vmt_rd_next_chunk(struct vmt_reader *r, struct vmt_cursor *c, uint64_t ordinal,
                      char *msg)
{
	for (;;) {
		struct vmt_frame f;
		const char *why = NULL;
		int ret = peek(r, &f);

		if (!ret) {
			switch (f.kind) {
			case VMT_FRAME_END:
				return 0;
			case VMT_FRAME_CHUNK:
				ret = try_load(r, c, r->off, f.size, ordinal, &why);
				if (!ret)
					return 1;
				break;
			case VMT_FRAME_BAD:
				ret = VMT_ECORRUPT;
				why = f.why;
				break;
			default:
				return frame_error(r, &f, msg);
			}
		}
		if (ret == VMT_ECORRUPT)
			ret = resync(r, c, why);
		if (ret == VMT_ENOMEM)
			return vmt_rd_set_error(msg, r->path, ret, "out of memory for the chunk at byte %llu",
			                 (unsigned long long)r->off);
		if (ret) {
			memcpy(msg, r->msg, MSG_SIZE);
			return ret;
		}
	}
}

/* The end of a trace with damaged stretches in it. */
int vmt_rd_damage_error(struct vmt_reader *r, char *msg)
{
	return vmt_rd_set_error(msg, r->path, VMT_ECORRUPT,
	                 "corrupt at byte %llu: %s (%llu damaged bytes in %u place%s skipped, the rest read)",
	                 (unsigned long long)r->damage_at, r->damage_why,
	                 (unsigned long long)r->damaged, r->damages, r->damages == 1 ? "" : "s");
}

/* Read the chunk at off, already checked by the index scan, into c. */
int vmt_rd_load_chunk(struct vmt_reader *r, struct vmt_cursor *c, uint64_t off,
                      uint64_t size, uint64_t ordinal)
{
	const char *why = NULL;
	int ret = try_load(r, c, off, size, ordinal, &why);

	if (ret == VMT_ENOMEM)
		return FAIL(r, ret, "out of memory for the chunk at byte %llu",
		            (unsigned long long)off);
	if (ret == VMT_ECORRUPT)
		return FAIL(r, ret, "corrupt chunk at byte %llu: %s", (unsigned long long)off, why);
	if (ret)
		return r->status = ret;
	r->st.chunks++;
	return 0;
}

int vmt_rd_step_error(struct vmt_reader *r, int err, const struct vmt_cursor *c)
{
	if (err == VMT_ENOMEM)
		return FAIL(r, err, "out of memory");
	return FAIL(r, err, "corrupt chunk at byte %llu: %s", (unsigned long long)c->offset,
	            c->why ? c->why : "bad data");
}
