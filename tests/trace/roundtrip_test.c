/* Two million generated records of every type, every system call and every
 * event field, written by six interleaved writers into one O_APPEND file,
 * come back equal in file order and in seq order; lz4 -dc accepts it. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "tests/tap.h"
#include "tests/trace/gen.h"

#define NREC 2000000u
#define NSTREAM 6

static int stream_of(uint64_t n)
{
	return (int)(gen_hash(n ^ 0x5555) % NSTREAM);
}

static int write_trace(const char *path)
{
	struct vmt_writer_prefs prefs = { .chunk_bytes = 16384 };
	struct vmt_writer *w[NSTREAM];
	struct vmt_record rec;
	struct gen_buf b;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
	int bad = 0;

	for (int s = 0; s < NSTREAM; s++)
		w[s] = vmt_writer_fdopen(fd, 1000 + s, 2000 + s, &prefs);
	gen_header(&rec);
	bad |= vmt_write(w[0], &rec);
	for (uint64_t n = 0; n < NREC; n++) {
		int s = stream_of(n);
		gen_record(n, 1000 + s, 2000 + s, &rec, &b);
		bad |= vmt_write(w[s], &rec);
	}
	for (int s = 0; s < NSTREAM; s++)
		bad |= vmt_writer_close(w[s]);
	close(fd);
	return bad;
}

struct check {
	uint8_t *seen;
	uint64_t records, events, dup, wrong, misordered;
	uint64_t last_in_stream[NSTREAM];
	uint64_t last_seq;
};

static int has_own_seq(int type)
{
	return type == VMT_REC_EVENT || type == VMT_REC_PROCESS || type == VMT_REC_MAP ||
	       type == VMT_REC_CHECKPOINT || type == VMT_REC_RESIDENCY;
}

static int read_trace(const char *path, int order, struct check *c,
                      struct vmt_reader_stats *st)
{
	struct vmt_reader_prefs prefs = { .order = order };
	struct vmt_record rec, want;
	struct gen_buf b;
	int err, ret;
	struct vmt_reader *r = vmt_reader_open(path, &prefs, &err);

	memset(c, 0, sizeof(*c));
	c->seen = calloc(NREC, 1);
	for (int s = 0; s < NSTREAM; s++)
		c->last_in_stream[s] = UINT64_MAX;
	if (!r) {
		diag("%s", vmt_reader_open_error());
		return err;
	}
	while ((ret = vmt_reader_next(r, &rec)) == 1) {
		uint64_t n = gen_seq_of(&rec);
		int s;
		c->records++;
		c->events += rec.type == VMT_REC_EVENT;
		if (n >= NREC || c->seen[n]++) {
			c->dup++;
			continue;
		}
		s = stream_of(n);
		gen_record(n, 1000 + s, 2000 + s, &want, &b);
		if (!record_eq(&rec, &want) && c->wrong++ < 3)
			diag("record %llu (type %d) differs", (unsigned long long)n, rec.type);
		if (c->last_in_stream[s] != UINT64_MAX && n < c->last_in_stream[s])
			c->misordered++;
		c->last_in_stream[s] = n;
		if (order == VMT_ORDER_SEQ && has_own_seq(rec.type)) {
			if (n < c->last_seq && c->misordered++ < 5)
				diag("seq %llu type %d after %llu", (unsigned long long)n, rec.type, (unsigned long long)c->last_seq);
			c->last_seq = n;
		}
	}
	if (ret)
		diag("%s", vmt_reader_error(r));
	vmt_reader_stats(r, st);
	vmt_reader_close(r);
	free(c->seen);
	return ret;
}

int main(void)
{
	char path[] = "/tmp/vmt-roundtrip-XXXXXX";
	int fd = mkstemp(path);
	struct vmt_reader_stats fst, sst;
	struct check fc, sc;
	char cmd[128];
	uint64_t want_events = 0;
	struct vmt_record rec;
	struct gen_buf b;

	close(fd);
	for (uint64_t n = 0; n < NREC; n++)
		want_events += gen_record(n, 0, 0, &rec, &b) == VMT_REC_EVENT;

	is_int(write_trace(path), 0, "six writers write two million records");

	is_int(read_trace(path, VMT_ORDER_FILE, &fc, &fst), 0, "file order reads to a clean end");
	is_int(fc.records, NREC, "file order: every record");
	is_int(fc.events, want_events, "file order: every event");
	is_int(fc.dup, 0, "file order: no record twice");
	is_int(fc.wrong, 0, "file order: every record equals what was written");
	is_int(fc.misordered, 0, "file order: each writer's records in write order");
	is_int(fst.events, want_events, "file order stats count the events");
	is_int(fst.records, NREC, "file order stats count the records");
	is_int(fst.lost_bytes, 0, "file order: nothing lost");
	is_int(fst.good_bytes, fst.file_bytes, "file order: every byte good");
	ok(fst.chunks > 500, "many chunks (%llu)", (unsigned long long)fst.chunks);

	is_int(read_trace(path, VMT_ORDER_SEQ, &sc, &sst), 0, "seq order reads to a clean end");
	is_int(sc.records, NREC, "seq order: every record");
	is_int(sc.dup, 0, "seq order: no record twice");
	is_int(sc.wrong, 0, "seq order: every record equals what was written");
	is_int(sc.misordered, 0, "seq order: records with a seq come in seq order");
	is_int(sst.chunks, fst.chunks, "seq order reads the same chunks");

	snprintf(cmd, sizeof(cmd), "lz4 -dc %s > /dev/null 2>&1", path);
	is_int(system(cmd), 0, "lz4 -dc accepts the trace");

	{
		int err;
		struct vmt_reader *r = vmt_reader_open(path, NULL, &err);
		struct vmt_record h;
		gen_header(&h);
		const struct vmt_header *got = vmt_reader_header(r);
		ok(got && got->version == VMT_FORMAT_VERSION &&
		   got->start_realtime_ns == h.u.header.start_realtime_ns &&
		   memcmp(&got->host, &h.u.header.host, sizeof(got->host)) == 0 &&
		   strcmp(got->cmdline, h.u.header.cmdline) == 0,
		   "the header comes back equal");
		vmt_reader_close(r);
	}
	unlink(path);
	return done_testing();
}
