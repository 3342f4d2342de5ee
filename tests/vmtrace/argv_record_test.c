/* argv_record_test - the ARGV record (format version 3): every element
 * kind and every end come back as written, and kinds or ends the format
 * does not define are corruption. */
#include <stdlib.h>
#include <unistd.h>
#include "vmt.h"
#include "tests/tap.h"

static char dir[] = "/tmp/vmrec-argv.XXXXXX";

static int write_one(const char *path, const struct vmt_argv *a)
{
	int err = 0;
	struct vmt_writer *w = vmt_writer_open(path, NULL, &err);
	if (!w)
		return err;
	struct vmt_record rec = { .type = VMT_REC_HEADER };
	rec.u.header.version = VMT_FORMAT_VERSION;
	rec.u.header.host.page_size = VMT_PAGE;
	err = vmt_write(w, &rec);
	rec = (struct vmt_record){ .type = VMT_REC_ARGV };
	rec.u.argv = *a;
	if (!err)
		err = vmt_write(w, &rec);
	int cerr = vmt_writer_close(w);
	return err ? err : cerr;
}

/* The first record after the header: 1 and *rec, or the reader's error. */
static int read_one(const char *path, struct vmt_reader **r, struct vmt_record *rec)
{
	int err = 0;
	*r = vmt_reader_open(path, NULL, &err);
	return *r ? vmt_reader_next(*r, rec) : err;
}

static void test_round_trip(const char *path)
{
	static const struct vmt_arg args[] = {
		{ VMT_ARG_STR, "python3", 0 },
		{ VMT_ARG_STR, "", 0 },
		{ VMT_ARG_CUT, "0123456789abcdef0123456789abcdef", 0 },
		{ VMT_ARG_FAULT, NULL, 0x7ffc00000001 },
		{ VMT_ARG_STR, "tab\there \"q\" \\ \001\377", 0 },
	};
	struct vmt_argv want = { .seq = 1234567, .pid = -5, .argc = 5, .args = args,
	                         .argv_end = VMT_ARGV_MORE, .envc = 42, .envp_end = VMT_ARGV_FAULT };
	is_int(write_one(path, &want), 0, "an ARGV record with every element kind is written");
	struct vmt_reader *r;
	struct vmt_record rec;
	is_int(read_one(path, &r, &rec), 1, "it reads back");
	const struct vmt_argv *got = &rec.u.argv;
	ok(rec.type == VMT_REC_ARGV && got->seq == want.seq && got->pid == want.pid &&
	   got->argc == want.argc && got->argv_end == want.argv_end && got->envc == want.envc &&
	   got->envp_end == want.envp_end, "seq, pid, argc, the ends and envc as written");
	int same = rec.type == VMT_REC_ARGV && got->argc == want.argc;
	for (uint32_t i = 0; same && i < want.argc; i++)
		same = got->args[i].kind == args[i].kind && got->args[i].addr == args[i].addr &&
		       (args[i].str ? got->args[i].str && !strcmp(got->args[i].str, args[i].str)
		                    : !got->args[i].str);
	ok(same, "every element's kind, text and address as written");
	vmt_reader_close(r);

	struct vmt_argv none = { .seq = 1, .pid = 1, .argv_end = VMT_ARGV_FAULT, .envp_end = VMT_ARGV_FAULT };
	is_int(write_one(path, &none), 0, "an ARGV record of arrays not read");
	is_int(read_one(path, &r, &rec), 1, "it reads back");
	ok(rec.u.argv.argc == 0 && rec.u.argv.argv_end == VMT_ARGV_FAULT && rec.u.argv.envc == 0 &&
	   rec.u.argv.envp_end == VMT_ARGV_FAULT, "no elements, both ends 2");
	vmt_reader_close(r);
}

static void expect_corrupt(const char *path, const struct vmt_argv *a, const char *what)
{
	struct vmt_reader *r;
	struct vmt_record rec;
	if (write_one(path, a) != 0) {
		ok(0, "%s: written", what);
		return;
	}
	int got = read_one(path, &r, &rec);
	is_int(got, VMT_ECORRUPT, "%s is corrupt", what);
	if (r)
		vmt_reader_close(r);
}

static void test_corrupt(const char *path)
{
	struct vmt_arg bad_kind = { 3, "x", 0 };
	expect_corrupt(path, &(struct vmt_argv){ .argc = 1, .args = &bad_kind }, "an element of kind 3");
	expect_corrupt(path, &(struct vmt_argv){ .argv_end = 3 }, "argv_end 3");
	expect_corrupt(path, &(struct vmt_argv){ .envp_end = VMT_ARGV_MORE }, "envp_end 1 (envp is counted whole)");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		ok(0, "a temporary directory");
		return done_testing();
	}
	char path[64];
	snprintf(path, sizeof(path), "%s/t.lz4", dir);
	test_round_trip(path);
	test_corrupt(path);
	unlink(path);
	rmdir(dir);
	return done_testing();
}
