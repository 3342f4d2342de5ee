/* trace_read [-f] [-o] FILE: read a trace (seq order, or file order with
 * -f) and print what came back and how it ended:
 *   records R events E chunks C good G lost L
 * then the reader's error line on stderr and exit status 1 if it failed.
 * -o: first each event and residency record in the order read, one a
 * line ("event SEQ PID TID SYS", "residency SEQ PID START"). */
#include <stdio.h>
#include <string.h>
#include "vmt.h"

int main(int argc, char **argv)
{
	struct vmt_reader_prefs prefs = { VMT_ORDER_SEQ };
	struct vmt_reader_stats st;
	struct vmt_record rec;
	struct vmt_reader *r;
	int err, ret;

	int each = 0;
	if (argc > 1 && strcmp(argv[1], "-f") == 0) {
		prefs.order = VMT_ORDER_FILE;
		argv++, argc--;
	}
	if (argc > 1 && strcmp(argv[1], "-o") == 0) {
		each = 1;
		argv++, argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: trace_read [-f] [-o] FILE\n");
		return 2;
	}
	r = vmt_reader_open(argv[1], &prefs, &err);
	if (!r) {
		fprintf(stderr, "%s\n", vmt_reader_open_error());
		return 1;
	}
	while ((ret = vmt_reader_next(r, &rec)) == 1) {
		if (each && rec.type == VMT_REC_EVENT)
			printf("event %llu %d %d %s\n", (unsigned long long)rec.u.event.seq, rec.u.event.pid,
			       rec.u.event.tid, vmt_sys_name(rec.u.event.sys));
		else if (each && rec.type == VMT_REC_RESIDENCY)
			printf("residency %llu %d %#llx\n", (unsigned long long)rec.u.residency.seq,
			       rec.u.residency.pid, (unsigned long long)rec.u.residency.start);
	}
	vmt_reader_stats(r, &st);
	printf("records %llu events %llu chunks %llu good %llu lost %llu\n",
	       (unsigned long long)st.records, (unsigned long long)st.events,
	       (unsigned long long)st.chunks, (unsigned long long)st.good_bytes,
	       (unsigned long long)st.lost_bytes);
	if (ret < 0)
		fprintf(stderr, "%s\n", vmt_reader_error(r));
	vmt_reader_close(r);
	return ret < 0;
}
