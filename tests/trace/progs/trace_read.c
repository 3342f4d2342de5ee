/* trace_read [-f] FILE: read a trace (seq order, or file order with -f)
 * and print what came back and how it ended:
 *   records R events E chunks C good G lost L
 * then the reader's error line on stderr and exit status 1 if it failed. */
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

	if (argc > 1 && strcmp(argv[1], "-f") == 0) {
		prefs.order = VMT_ORDER_FILE;
		argv++, argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: trace_read [-f] FILE\n");
		return 2;
	}
	r = vmt_reader_open(argv[1], &prefs, &err);
	if (!r) {
		fprintf(stderr, "%s\n", vmt_reader_open_error());
		return 1;
	}
	while ((ret = vmt_reader_next(r, &rec)) == 1)
		;
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
