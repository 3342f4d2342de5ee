/* trace_gen FILE NRECORDS [CHUNK_BYTES [KIND]]: write a test trace.
 *   KIND gen (default): records 0..N-1 of tests/trace/gen.h, one writer;
 *   brk: AIM9-style brk events (runs of predicted events);
 *   threads: gen records from three writers sharing the file. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vmt.h"
#include "tests/trace/gen.h"

static void brk_record(uint64_t n, struct vmt_record *rec)
{
	static uint64_t cur = 0x555555559000ull;
	struct vmt_event *e = &rec->u.event;

	memset(rec, 0, sizeof(*rec));
	rec->type = VMT_REC_EVENT;
	cur += n % 17 == 0 ? (uint64_t)-65536 : 4096;
	e->seq = n;
	e->time_ns = 1000000 + n * 1500 + gen_hash(n) % 50;
	e->latency_ns = 1400 + gen_hash(n + 1) % 90;
	e->pid = e->tid = 100;
	e->sys = VMT_SYS_BRK;
	e->args[0] = cur;
	e->result = (int64_t)cur;
}

int main(int argc, char **argv)
{
	struct vmt_writer_prefs prefs = { 0 };
	struct vmt_writer *w[3];
	const char *kind = argc > 4 ? argv[4] : "gen";
	int nw = strcmp(kind, "threads") == 0 ? 3 : 1;
	struct vmt_record rec;
	struct gen_buf b;
	int err = 0, fd;

	if (argc < 3) {
		fprintf(stderr, "usage: trace_gen FILE NRECORDS [CHUNK_BYTES [gen|brk|threads]]\n");
		return 2;
	}
	if (argc > 3)
		prefs.chunk_bytes = strtoul(argv[3], NULL, 0);
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	for (int i = 0; i < nw; i++)
		w[i] = vmt_writer_fdopen(fd, 100 + i, 200 + i, &prefs);
	gen_header(&rec);
	err = vmt_write(w[0], &rec);
	for (unsigned long n = 0, max = strtoul(argv[2], NULL, 0); n < max && !err; n++) {
		int i = (int)(gen_hash(n ^ 77) % (unsigned)nw);
		if (strcmp(kind, "brk") == 0)
			brk_record(n, &rec);
		else
			gen_record(n, 100 + i, 200 + i, &rec, &b);
		err = vmt_write(w[i], &rec);
	}
	if (err)
		fprintf(stderr, "trace_gen: %s\n", vmt_writer_error(w[0]));
	for (int i = 0; i < nw; i++)
		err |= vmt_writer_close(w[i]);
	close(fd);
	return err ? 1 : 0;
}
