/* Seq order keeps open every chunk whose seq range the merge is inside;
 * it refuses (with a one-line error, not an allocation per chunk) a trace
 * where more than 4096 chunks overlap, which file order still reads. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "tests/tap.h"
#include "tests/trace/gen.h"

static int read_all(const char *path, int order, uint64_t *n, char *msg, size_t size)
{
	struct vmt_reader_prefs prefs = { order };
	struct vmt_record rec;
	int err, ret;
	struct vmt_reader *r = vmt_reader_open(path, &prefs, &err);

	*n = 0;
	if (!r)
		return err;
	while ((ret = vmt_reader_next(r, &rec)) == 1)
		++*n;
	snprintf(msg, size, "%s", ret ? vmt_reader_error(r) : "");
	vmt_reader_close(r);
	return ret;
}

static void write_overlapping(const char *path, int nchunks)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_APPEND);
	struct vmt_record rec;
	struct vmt_writer *w = vmt_writer_fdopen(fd, 1, 1, NULL);

	gen_header(&rec);
	vmt_write(w, &rec);
	vmt_writer_close(w);
	/* chunk i, of thread i + 1, holds
	 * seq i and 100000 + i: every chunk overlaps every other */
	for (int i = 0; i < nchunks; i++) {
		w = vmt_writer_fdopen(fd, 1, i + 1, NULL);
		for (int k = 0; k < 2; k++) {
			rec = (struct vmt_record){ .type = VMT_REC_EVENT };
			rec.u.event.seq = (uint64_t)(k * 100000 + i);
			rec.u.event.sys = VMT_SYS_BRK;
			rec.u.event.pid = 1;
			rec.u.event.tid = i + 1;
			vmt_write(w, &rec);
		}
		vmt_writer_close(w);
	}
	close(fd);
}

int main(void)
{
	char path[] = "/tmp/vmt-overlap-XXXXXX", msg[600], want[600];
	uint64_t n;
	int fd = mkstemp(path);

	close(fd);
	write_overlapping(path, 4096);
	is_int(read_all(path, VMT_ORDER_SEQ, &n, msg, sizeof(msg)), 0,
	       "4096 overlapping chunks merge in seq order");
	is_int(n, 8192, "every event");

	write_overlapping(path, 4097);
	is_int(read_all(path, VMT_ORDER_SEQ, &n, msg, sizeof(msg)), VMT_ECORRUPT,
	       "4097 overlapping chunks are refused in seq order");
	is_int(n, 4096, "after the events before the limit");
	snprintf(want, sizeof(want), "%s: more than 4096 chunks overlap in seq at byte ", path);
	ok(strncmp(msg, want, strlen(want)) == 0 && strstr(msg, "; read it in file order"),
	   "the error says so: %s", msg);
	is_int(read_all(path, VMT_ORDER_FILE, &n, msg, sizeof(msg)), 0, "file order reads it");
	is_int(n, 8194, "every event");
	unlink(path);
	return done_testing();
}
