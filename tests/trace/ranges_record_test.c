/* ranges_record_test - the RANGES record (format version 4; 6: the
 * iovec's target process): every kind
 * comes back as written, kinds and name readings the format does not
 * define are corruption, and the trace rules hold a record to its event:
 * the kind the event's row reads, ranges that fit the address space. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vmt.h"
#include "vmt_check.h"
#include "tests/tap.h"

static char dir[] = "/tmp/vmrec-ranges.XXXXXX";

/* A trace of a header, a PROCESS of pid 7, the record, and an event of
 * `sys` with the record's seq (none when sys is VMT_SYS_NONE). */
static int write_trace(const char *path, const struct vmt_ranges *x, int sys)
{
	int err = 0;
	struct vmt_writer *w = vmt_writer_open(path, NULL, &err);
	if (!w)
		return err;
	struct vmt_record rec = { .type = VMT_REC_HEADER };
	rec.u.header.version = VMT_FORMAT_VERSION;
	rec.u.header.host.page_size = VMT_PAGE;
	err = vmt_write(w, &rec);
	rec = (struct vmt_record){ .type = VMT_REC_PROCESS };
	rec.u.process = (struct vmt_process){ .seq = 1, .pid = 7, .exe = "x", .cmdline = "x" };
	if (!err)
		err = vmt_write(w, &rec);
	rec = (struct vmt_record){ .type = VMT_REC_RANGES };
	rec.u.ranges = *x;
	if (!err)
		err = vmt_write(w, &rec);
	if (sys != VMT_SYS_NONE) {
		rec = (struct vmt_record){ .type = VMT_REC_EVENT };
		rec.u.event = (struct vmt_event){ .seq = x->seq, .seq_end = x->seq + 1, .pid = 7, .tid = 7,
		                                  .sys = (uint16_t)sys };
		if (!err)
			err = vmt_write(w, &rec);
	}
	int cerr = vmt_writer_close(w);
	return err ? err : cerr;
}

/* The RANGES record of the trace into *got (strings and arrays copied). */
static struct vmt_range got_ranges[VMT_RANGES_MAX];
static char got_name[VMT_NAME_MAX + 1];

static int read_ranges(const char *path, struct vmt_ranges *got)
{
	int err = 0, found = 0;
	struct vmt_reader *r = vmt_reader_open(path, NULL, &err);
	if (!r)
		return err;
	struct vmt_record rec;
	while ((err = vmt_reader_next(r, &rec)) > 0) {
		if (rec.type != VMT_REC_RANGES)
			continue;
		*got = rec.u.ranges;
		memcpy(got_ranges, rec.u.ranges.ranges, rec.u.ranges.n * sizeof(got_ranges[0]));
		got->ranges = got_ranges;
		if (rec.u.ranges.name) {
			strncpy(got_name, rec.u.ranges.name, sizeof(got_name) - 1);
			got->name = got_name;
		}
		found = 1;
	}
	vmt_reader_close(r);
	return err < 0 ? err : found;
}

static int same(const struct vmt_ranges *a, const struct vmt_ranges *b)
{
	if (a->seq != b->seq || a->pid != b->pid || a->kind != b->kind || a->n != b->n ||
	    a->mode != b->mode || a->ioctls != b->ioctls || a->name_how != b->name_how ||
	    a->nwords != b->nwords || a->target != b->target || memcmp(a->nodes, b->nodes, a->nwords * sizeof(a->nodes[0])))
		return 0;
	if (a->n && memcmp(a->ranges, b->ranges, a->n * sizeof(a->ranges[0])))
		return 0;
	return !a->name == !b->name && (!a->name || !strcmp(a->name, b->name));
}

static void round_trip(const char *path, const struct vmt_ranges *want, int sys, const char *what)
{
	struct vmt_ranges got = { 0 };
	is_int(write_trace(path, want, sys), 0, "%s: written", what);
	is_int(read_ranges(path, &got), 1, "%s: read back", what);
	ok(same(&got, want), "%s: every field as written", what);
	char msg[512];
	is_int(vmt_check_file(path, msg, sizeof msg), 0, "%s: the trace follows the rules", what);
}

static void expect_bad(const char *path, const struct vmt_ranges *x, int sys, const char *why,
                       const char *what)
{
	char msg[512] = "";
	is_int(write_trace(path, x, sys), 0, "%s: written", what);
	is_int(vmt_check_file(path, msg, sizeof msg), -1, "%s: refused", what);
	ok(strstr(msg, why) != NULL, "%s: says \"%s\" (%s)", what, why, msg);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	char path[256];
	snprintf(path, sizeof path, "%s/t.lz4", dir);

	struct vmt_range many[VMT_RANGES_MAX];
	for (unsigned i = 0; i < VMT_RANGES_MAX; i++)
		many[i] = (struct vmt_range){ 0x7f0000000000ull + i * 0x3000ull, 0x1000ull * (i % 3 + 1) };
	struct vmt_ranges iov = { .seq = 5, .pid = 7, .kind = VMT_RANGES_IOVEC, .n = 2, .ranges = many,
	                          .target = 31458 };
	round_trip(path, &iov, VMT_SYS_PROCESS_MADVISE, "a process_madvise iovec of 2, its target (format 6)");
	iov.target = -1;
	round_trip(path, &iov, VMT_SYS_PROCESS_MADVISE, "an iovec of a pidfd whose process had ended");
	iov.n = VMT_RANGES_MAX;
	round_trip(path, &iov, VMT_SYS_PROCESS_MADVISE, "an iovec of UIO_MAXIOV");

	struct vmt_range one = { 0x7f1234560000ull, 0x2000 };
	struct vmt_ranges reg = { .seq = 9, .pid = 7, .kind = VMT_RANGES_UFFDIO_REGISTER, .n = 1,
	                          .ranges = &one, .mode = 3, .ioctls = 0x13c };
	round_trip(path, &reg, VMT_SYS_UFFDIO_REGISTER, "a uffd registration, its mode and ioctls");
	struct vmt_ranges unreg = { .seq = 9, .pid = 7, .kind = VMT_RANGES_UFFDIO_RANGE, .n = 1, .ranges = &one };
	round_trip(path, &unreg, VMT_SYS_UFFDIO_UNREGISTER, "a uffd unregistration");
	struct vmt_ranges name = { .seq = 3, .pid = 7, .kind = VMT_RANGES_VMA_NAME,
	                           .name_how = VMT_NAME_STR, .name = "my heap \"x\"" };
	round_trip(path, &name, VMT_SYS_PRCTL_SET_VMA, "a VMA's name");
	struct vmt_ranges cleared = { .seq = 3, .pid = 7, .kind = VMT_RANGES_VMA_NAME, .name_how = VMT_NAME_NULL };
	round_trip(path, &cleared, VMT_SYS_PRCTL_SET_VMA, "a name cleared (NULL)");
	struct vmt_ranges unread = { .seq = 3, .pid = 7, .kind = VMT_RANGES_VMA_NAME, .name_how = VMT_NAME_FAULT };
	round_trip(path, &unread, VMT_SYS_PRCTL_SET_VMA, "a name that could not be read");
	round_trip(path, &reg, VMT_SYS_NONE, "a record whose event was lost");
	struct vmt_ranges mask = { .seq = 4, .pid = 7, .kind = VMT_RANGES_NODEMASK, .nwords = VMT_NODEMASK_WORDS,
	                           .nodes = { 1, 0, 1ull << 63, [15] = 5 } };
	round_trip(path, &mask, VMT_SYS_MBIND, "an mbind's nodemask (format 5)");

	/* the rules */
	expect_bad(path, &reg, VMT_SYS_PROCESS_MADVISE, "not the kind its call reads",
	           "a uffd range before a process_madvise");
	expect_bad(path, &iov, VMT_SYS_MADVISE, "not the kind its call reads",
	           "ranges before a call that reads none");
	struct vmt_ranges empty = { .seq = 5, .pid = 7, .kind = VMT_RANGES_IOVEC, .n = 0 };
	expect_bad(path, &empty, VMT_SYS_PROCESS_MADVISE, "without a range", "an iovec of none");
	struct vmt_range wrap = { 0xfffffffffffff000ull, 0x2000 };
	struct vmt_ranges past = { .seq = 9, .pid = 7, .kind = VMT_RANGES_UFFDIO_RANGE, .n = 1, .ranges = &wrap };
	expect_bad(path, &past, VMT_SYS_UFFDIO_UNREGISTER, "past the end", "a range past 2^64");
	struct vmt_ranges two = { .seq = 9, .pid = 7, .kind = VMT_RANGES_UFFDIO_RANGE, .n = 2, .ranges = many };
	expect_bad(path, &two, VMT_SYS_UFFDIO_UNREGISTER, "more than one", "a uffd range of two");

	/* what the format does not define is corruption */
	struct vmt_ranges odd = { .seq = 5, .pid = 7, .kind = 9, .n = 1, .ranges = many };
	struct vmt_ranges got;
	is_int(write_trace(path, &odd, VMT_SYS_NONE), 0, "a record of kind 9: written");
	is_int(read_ranges(path, &got), VMT_ECORRUPT, "a record of kind 9 does not decode");
	struct vmt_ranges how = { .seq = 3, .pid = 7, .kind = VMT_RANGES_VMA_NAME, .name_how = 3 };
	is_int(write_trace(path, &how, VMT_SYS_NONE), 0, "a name read in way 3: written");
	is_int(read_ranges(path, &got), VMT_ECORRUPT, "a name read in way 3 does not decode");
	iov.n = VMT_RANGES_MAX + 1;
	is_int(write_trace(path, &iov, VMT_SYS_NONE), VMT_EINVAL, "a writer refuses more than UIO_MAXIOV ranges");

	unlink(path);
	rmdir(dir);
	return done_testing();
}
