/* decode_test: the event decoder reads without per-byte bounds checks
 * (vmt_event.h): its varints and deltas agree with the checked readers at
 * every length, and an event cut anywhere is refused whatever bytes follow
 * the stream's end, never taken from them. */
#include <stdlib.h>
#include "tests/tap.h"
#include "vmt_event.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A value of `bits` significant bits. */
static uint64_t value_of(unsigned bits)
{
	return bits ? (rnd() | 1ull << 63) >> (64 - bits) : 0;
}

static int event_eq(const struct vmt_event *a, const struct vmt_event *b)
{
	return a->seq == b->seq && a->time_ns == b->time_ns &&
	       a->latency_ns == b->latency_ns && a->pid == b->pid && a->tid == b->tid &&
	       a->sys == b->sys && a->flags == b->flags && a->err == b->err &&
	       a->result == b->result && !memcmp(a->args, b->args, sizeof(a->args)) &&
	       a->stack_id == b->stack_id && a->file_id == b->file_id;
}

static void varints(void)
{
	uint8_t buf[16 + VMT_EVENT_MAX_READ];
	int bad = 0;

	for (unsigned bits = 0; bits <= 64; bits++) {
		for (int k = 0; k < 200; k++) {
			uint64_t v = value_of(bits), got = ~v, want;
			uint8_t *end;
			memset(buf, k & 1 ? 0xFF : 0, sizeof(buf)); /* what follows */
			end = vmt_put_varint(buf, v);
			if (vmt_rd_varint(buf, &got) != end || got != v ||
			    vmt_rd_varint1(buf, &got) != end || got != v ||
			    vmt_get_varint(buf, end, &want) != end || want != v)
				bad++;
			end = vmt_put_delta(buf, v);
			if (vmt_rd_delta(buf, &got) != end || got != v ||
			    vmt_get_delta(buf, end, &want) != end || want != v)
				bad++;
		}
	}
	is_int(bad, 0, "varints and deltas of 0..64 bits read as the checked readers read them");

	/* non-canonical lengths: 7 followed by zero groups, 1..10 bytes */
	bad = 0;
	for (unsigned n = 1; n <= 10; n++) {
		uint64_t got = 0;
		memset(buf, 0x80, sizeof(buf));
		buf[0] = 0x87;
		buf[n - 1] &= 0x7F;
		if (n == 1)
			buf[0] = 0x07;
		if (vmt_rd_varint(buf, &got) != buf + n || got != 7)
			bad++;
	}
	is_int(bad, 0, "a varint padded to 1..10 bytes reads as its value");
	memset(buf, 0x80, sizeof(buf));
	ok(vmt_rd_varint(buf, &(uint64_t){0}) == NULL, "a varint of 11 bytes is refused");
}

/* An event that uses every field, encoded after a few that set up the
 * predictor, so its bytes hold long varints and deltas. */
static size_t encode(uint8_t *buf, size_t *last_start, struct vmt_event *last)
{
	struct vmt_predictor pr;
	uint8_t *p = buf;

	vmt_predictor_init(&pr, 100, 10, 10);
	for (int i = 0; i < 4; i++) {
		struct vmt_event e = {
			.seq = 100 + (uint64_t)i * 7, .time_ns = 1000000 * (uint64_t)i,
			.latency_ns = 1500, .pid = 10, .tid = 10, .sys = VMT_SYS_MMAP,
			.result = (int64_t)(0x7f0000000000ull - 0x1000ull * (uint64_t)i),
			.args = { 0, 4096, 3, 0x22, (uint64_t)-1, 0 },
		};
		if (i == 3) {
			e.sys = VMT_SYS_MREMAP;
			e.err = 12;
			e.result = -1;
			e.flags = 0xFFFF;
			e.stack_id = 0xFFFFFFFFu;
			e.file_id = 0x12345678u;
			e.pid = INT32_MIN;
			e.tid = INT32_MAX;
			e.time_ns = 5; /* a negative gap */
			for (int a = 0; a < 6; a++)
				e.args[a] = 0x8000000000000123ull + (uint64_t)a;
			*last_start = (size_t)(p - buf);
			*last = e;
		}
		p = vmt_event_encode(p, &pr, &e);
	}
	return (size_t)(p - buf);
}

static void cut_events(void)
{
	uint8_t stream[4 * VMT_EVENT_MAX_BYTES];
	uint8_t *buf = malloc(sizeof(stream) + VMT_EVENT_MAX_READ);
	struct vmt_event want = { 0 };
	size_t last_start = 0, len = encode(stream, &last_start, &want);
	int bad = 0;

	ok(len - last_start > 60, "the last event spans %zu bytes", len - last_start);
	for (int fill = 0; fill < 3; fill++) {
		static const uint8_t fills[3] = { 0x00, 0x80, 0xFF };
		for (size_t cut = last_start; cut <= len; cut++) {
			struct vmt_predictor pr;
			struct vmt_event e;
			const uint8_t *p = buf, *end = buf + cut;
			memcpy(buf, stream, cut);
			memset(buf + cut, fills[fill], VMT_EVENT_MAX_READ);
			vmt_predictor_init(&pr, 100, 10, 10);
			for (int i = 0; i < 3; i++)
				p = vmt_event_decode(p, end, &pr, &e);
			if (!p || p != buf + last_start) {
				bad++;
				continue;
			}
			p = vmt_event_decode(p, end, &pr, &e);
			if (cut < len ? p != NULL : p != end || !event_eq(&e, &want))
				bad++;
		}
	}
	is_int(bad, 0, "an event cut at any byte is refused, whatever follows the cut");
	free(buf);
}

int main(void)
{
	varints();
	cut_events();
	return done_testing();
}
