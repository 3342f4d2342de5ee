/* A trace cut at every chunk boundary reads cleanly up to the cut; cut
 * anywhere inside a chunk it returns every complete chunk, then
 * VMT_ETRUNCATED with the lost bytes counted.  Any single changed byte is
 * either reported as an error or harmless (an LZ4 match that still decodes
 * to the same bytes), in both orders, and never crashes. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/tap.h"
#include "tests/trace/gen.h"
#include "traces/vmt_format.h"

#define NREC 3000
#define MAXCHUNKS 1024

static char path[64];
static uint8_t *orig;
static size_t orig_len;

struct outcome {
	int open_err, ret;
	uint64_t records, wrong;
	struct vmt_reader_stats st;
};

static void read_bytes(const uint8_t *data, size_t len, int order, struct outcome *o)
{
	struct vmt_reader_prefs prefs = { order };
	struct vmt_record rec;
	int fd = open(path, O_WRONLY | O_TRUNC);
	struct vmt_reader *r;

	if (write(fd, data, len) != (ssize_t)len)
		abort();
	close(fd);
	memset(o, 0, sizeof(*o));
	r = vmt_reader_open(path, &prefs, &o->open_err);
	if (!r)
		return;
	while ((o->ret = vmt_reader_next(r, &rec)) == 1) {
		struct vmt_record want;
		struct gen_buf b;
		uint64_t n = gen_seq_of(&rec);
		o->records++;
		if (n >= NREC || gen_record(n, 100, 200, &want, &b) != rec.type ||
		    !record_eq(&rec, &want))
			o->wrong++;
	}
	/* the error sticks */
	if (o->ret < 0 && vmt_reader_next(r, &rec) != o->ret)
		o->ret = -99;
	vmt_reader_stats(r, &o->st);
	vmt_reader_close(r);
}

int main(void)
{
	char cmd[200];
	struct stat sb;
	size_t bound[MAXCHUNKS + 1], nchunks = 0, off;
	uint64_t before[MAXCHUNKS + 1];
	int fd;
	int bad_cuts = 0, bad_flips = 0, cuts = 0, flips = 0;

	/* thousands of rewrites: keep them in memory when we can */
	snprintf(path, sizeof(path), "%s/vmt-damage-XXXXXX",
	         access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	fd = mkstemp(path);
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s/tests/trace/progs/trace_gen %s %d 4096",
	         getenv("VMREC_BUILD") ? getenv("VMREC_BUILD") : "build", path, NREC);
	is_int(system(cmd), 0, "trace_gen wrote a trace");
	stat(path, &sb);
	orig_len = (size_t)sb.st_size;
	orig = malloc(orig_len);
	fd = open(path, O_RDONLY);
	if (read(fd, orig, orig_len) != (ssize_t)orig_len)
		return 1;
	close(fd);

	/* chunk boundaries, from the frame sizes (docs/trace-format.md) */
	off = 8 + vmt_get32(orig + 4);
	before[0] = 0;
	while (off < orig_len && nchunks < MAXCHUNKS) {
		const uint8_t *c = orig + off;
		bound[nchunks] = off;
		before[nchunks + 1] = before[nchunks] + vmt_get32(c + 48) + vmt_get32(c + 52);
		off += 8 + vmt_get32(c + 4) + vmt_get32(c + 60);
		nchunks++;
	}
	bound[nchunks] = off;
	is_int(off, orig_len, "the chunks tile the file");
	ok(nchunks > 10, "%zu chunks", nchunks);
	is_int(before[nchunks], NREC, "the chunks hold every record");

	for (int order = 0; order < 2; order++) {
		for (size_t i = 0; i < nchunks; i++) {
			size_t start = bound[i], len = bound[i + 1] - start;
			size_t at[] = { 0, 1, 7, 8, 23, 24, 63, 64, 65, len / 2, len - 9, len - 4, len - 1 };
			for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
				struct outcome o;
				size_t cut = start + at[k];
				int want = at[k] ? VMT_ETRUNCATED : 0;
				read_bytes(orig, cut, order, &o);
				cuts++;
				if (o.open_err || o.ret != want || o.records != before[i] ||
				    o.st.good_bytes != start || o.st.lost_bytes != cut - start) {
					if (bad_cuts++ < 5)
						diag("order %d cut at %zu (chunk %zu +%zu): open %d ret %d records %llu good %llu lost %llu",
						     order, cut, i, at[k], o.open_err, o.ret,
						     (unsigned long long)o.records,
						     (unsigned long long)o.st.good_bytes,
						     (unsigned long long)o.st.lost_bytes);
				}
			}
		}
	}
	is_int(bad_cuts, 0, "%d cuts at and inside chunks read up to the last complete chunk", cuts);

	{
		uint8_t *copy = malloc(orig_len);
		for (int order = 0; order < 2; order++) {
			/* every fifth byte of the header and first chunk, then a sample */
			for (size_t pos = 0; pos < orig_len; pos += pos < bound[1] ? 5 : 307) {
				static const uint8_t xors[] = { 0x01, 0x80, 0xff };
				for (size_t x = 0; x < (pos < bound[1] ? 1 : sizeof(xors)); x++) {
					struct outcome o;
					memcpy(copy, orig, orig_len);
					copy[pos] ^= xors[x];
					read_bytes(copy, orig_len, order, &o);
					flips++;
					if (!o.open_err && o.ret >= 0 && (o.records != NREC || o.wrong)) {
						if (bad_flips++ < 5)
							diag("order %d byte %zu ^ 0x%02x went unnoticed (%llu records, %llu wrong)",
							     order, pos, xors[x], (unsigned long long)o.records,
							     (unsigned long long)o.wrong);
					}
				}
			}
		}
		free(copy);
	}
	is_int(bad_flips, 0, "%d changed bytes are reported or harmless", flips);
	unlink(path);
	free(orig);
	return done_testing();
}
