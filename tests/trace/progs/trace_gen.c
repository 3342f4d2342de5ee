/* trace_gen FILE NRECORDS [CHUNK_BYTES]: write a test trace of the
 * generated records 0..NRECORDS-1 of tests/trace/gen.h. */
#include <stdio.h>
#include <stdlib.h>
#include "vmt.h"
#include "tests/trace/gen.h"

int main(int argc, char **argv)
{
	struct vmt_writer_prefs prefs = { 0 };
	struct vmt_writer *w;
	struct vmt_record rec;
	struct gen_buf b;
	int err;

	if (argc < 3) {
		fprintf(stderr, "usage: trace_gen FILE NRECORDS [CHUNK_BYTES]\n");
		return 2;
	}
	if (argc > 3)
		prefs.chunk_bytes = strtoul(argv[3], NULL, 0);
	w = vmt_writer_open(argv[1], &prefs, &err);
	if (!w) {
		fprintf(stderr, "trace_gen: %s: %s\n", argv[1], vmt_strerror(err));
		return 1;
	}
	gen_header(&rec);
	err = vmt_write(w, &rec);
	for (unsigned long n = 0, max = strtoul(argv[2], NULL, 0); n < max && !err; n++) {
		gen_record(n, 100, 200, &rec, &b);
		err = vmt_write(w, &rec);
	}
	if (err)
		fprintf(stderr, "trace_gen: %s\n", vmt_writer_error(w));
	return vmt_writer_close(w) || err ? 1 : 0;
}
