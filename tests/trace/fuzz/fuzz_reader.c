/* fuzz_reader.c - libFuzzer harness: any bytes, read as a trace in both
 * orders, must give records or a clean error, never a crash, a hang or an
 * unbounded allocation.  Each input is read twice: with checksums (what
 * tools see) and without (so mutations reach the decoders behind them).
 * Built by `make fuzz`; tests/trace/fuzz_corpus_test.c replays the corpus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "vmt.h"
#include "traces/vmt_format.h"

static int memfd = -1;
static char memfd_path[64];

static void read_all(int order)
{
	struct vmt_reader_prefs prefs = { order };
	struct vmt_reader_stats st;
	struct vmt_record rec;
	int err, ret;
	struct vmt_reader *r = vmt_reader_open(memfd_path, &prefs, &err);
	uint64_t n = 0;

	if (!r) {
		if (err >= 0 || !vmt_reader_open_error()[0])
			abort();
		return;
	}
	if (!vmt_reader_header(r))
		abort();
	while ((ret = vmt_reader_next(r, &rec)) == 1) {
		n++;
		/* touch what the pointers point at */
		switch (rec.type) {
		case VMT_REC_MAP:
		case VMT_REC_LAYOUT:
			for (uint32_t i = 0; i < rec.u.map.nvma; i++)
				n += strlen(rec.u.map.vmas[i].name);
			break;
		case VMT_REC_STACK:
			for (uint32_t i = 0; i < rec.u.stack.depth; i++)
				n += rec.u.stack.ips[i] & 1;
			break;
		case VMT_REC_RESIDENCY:
			for (uint64_t i = 0; i < (rec.u.residency.npages + 7) / 8; i++)
				n += rec.u.residency.bits[i] & 1;
			break;
		case VMT_REC_PROCESS:
			n += strlen(rec.u.process.exe) + strlen(rec.u.process.cmdline);
			break;
		case VMT_REC_FILE:
			n += strlen(rec.u.file.path);
			break;
		case VMT_REC_MODULE:
			n += strlen(rec.u.module.path);
			break;
		case VMT_REC_RANGES:
			for (uint32_t i = 0; i < rec.u.ranges.n; i++)
				n += rec.u.ranges.ranges[i].len & 1;
			if (rec.u.ranges.name)
				n += strlen(rec.u.ranges.name);
			break;
		}
	}
	if (ret < 0 && !vmt_reader_error(r)[0])
		abort();
	if (ret < 0 && vmt_reader_next(r, &rec) != ret)
		abort(); /* errors stick */
	vmt_reader_stats(r, &st);
	if (st.good_bytes + st.lost_bytes > st.file_bytes || st.events > st.records)
		abort();
	vmt_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (memfd < 0) {
		memfd = memfd_create("fuzz-trace", 0);
		snprintf(memfd_path, sizeof(memfd_path), "/proc/self/fd/%d", memfd);
	}
	if (ftruncate(memfd, 0) || pwrite(memfd, data, size, 0) != (ssize_t)size)
		abort();
	for (int ignore = 0; ignore < 2; ignore++) {
		vmt_ignore_checksums = ignore;
		read_all(VMT_ORDER_FILE);
		read_all(VMT_ORDER_SEQ);
	}
	vmt_ignore_checksums = 0;
	return 0;
}
