/* Events with extreme field values (0, all ones, the signed minimum, sys
 * beyond the table) round-trip exactly; under `make asan` this also checks
 * that no encoder or decoder arithmetic overflows. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "tests/tap.h"
#include "tests/trace/gen.h"

static const uint64_t values[] = {
	0, 1, 4096, 0x7fffffffffffffffull, 0x8000000000000000ull,
	0xfffffffffffff000ull, 0xffffffffffffffffull, 0x123456789abcdef1ull,
};
#define NV (sizeof(values) / sizeof(values[0]))

static void make(uint64_t i, struct vmt_event *e)
{
	memset(e, 0, sizeof(*e));
	e->seq = i * 3;
	/* the call's end: the next seq, far later, or the counter's last value */
	e->seq_end = i % 9 == 0 ? UINT64_MAX : e->seq + 1 + (values[i % NV] & 0xffff);
	e->time_ns = values[i % NV];
	e->latency_ns = values[(i / NV) % NV];
	e->pid = (int32_t)values[(i / 3) % NV];
	e->tid = i % 5 ? INT32_MIN : INT32_MAX;
	e->sys = (uint16_t)(i % 7 == 0 ? 65535 : i % (VMT_SYS_COUNT + 3));
	e->flags = (uint16_t)(i % 11 == 0 ? 0xffff : 0);
	e->err = i % 13 == 0 ? INT32_MIN : i % 17 == 0 ? INT32_MAX : 0;
	e->result = (int64_t)values[(i / 7) % NV];
	for (int a = 0; a < 6; a++)
		e->args[a] = values[(i + (uint64_t)a * 3) % NV];
	e->stack_id = i % 19 == 0 ? UINT32_MAX : 0;
	e->file_id = i % 23 == 0 ? UINT32_MAX : 0;
}

int main(void)
{
	char path[] = "/tmp/vmt-extremes-XXXXXX";
	int fd = mkstemp(path), err, bad = 0, n = 0, ret;
	struct vmt_writer *w = vmt_writer_fdopen(fd, INT32_MIN, INT32_MAX, NULL);
	struct vmt_record rec, hdr;
	struct vmt_reader_prefs prefs = { VMT_ORDER_FILE };
	struct vmt_reader *r;

	gen_header(&hdr);
	vmt_write(w, &hdr);
	for (uint64_t i = 0; i < 20000; i++) {
		rec.type = VMT_REC_EVENT;
		make(i, &rec.u.event);
		bad |= vmt_write(w, &rec);
	}
	bad |= vmt_writer_close(w);
	close(fd);
	is_int(bad, 0, "20000 extreme events written");
	r = vmt_reader_open(path, &prefs, &err);
	bad = 0;
	while ((ret = vmt_reader_next(r, &rec)) == 1) {
		struct vmt_event want;
		make((uint64_t)n++, &want);
		if (memcmp(&want, &rec.u.event, sizeof(want)) && bad++ < 3)
			diag("event %d differs", n - 1);
	}
	is_int(ret, 0, "read to the end");
	is_int(n, 20000, "every event");
	is_int(bad, 0, "every field exact");
	vmt_reader_close(r);
	unlink(path);
	return done_testing();
}
