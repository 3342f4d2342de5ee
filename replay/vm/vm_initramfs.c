/* vm_initramfs.c - assemble the guest's initramfs. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/vm/vm_cpio.h"
#include "replay/vm/vm_initramfs.h"

/* The device nodes the guest needs before anything mounts devtmpfs. */
static const struct { const char *name; unsigned major, minor; } nodes[] = {
	{ "dev/console", 5, 1 },
	{ "dev/null", 1, 3 },
	{ "dev/ttyS0", 4, 64 },
	{ "dev/ttyS1", 4, 65 },
};

static const char *const dirs[] = { "dev", "proc", "sys", "tmp", "bin",
                                    "trace", "jobs", "out" };

/* The trace keeps its file name in the guest, so results name the same
 * trace as on the host. */
static const char *trace_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* argv of job i, NUL-separated: the replayer, the options, maybe --json,
 * and the trace as the guest sees it. */
static char *job_args(const struct vm_image *img, int i, size_t *len)
{
	char json[64], trace[64 + NAME_MAX];
	size_t cap = 256 + sizeof trace;

	snprintf(json, sizeof json, "/out/%d/results.json", i);
	snprintf(trace, sizeof trace, "/trace/%d/%s", i, trace_name(img->traces[i]));
	for (int k = 0; k < img->nopts; k++)
		cap += strlen(img->opts[k]) + 1;
	char *buf = malloc(cap), *p = buf;
	if (!buf)
		return NULL;
#define ADD(s) (p = stpcpy(p, (s)) + 1)
	ADD("/bin/vmreplay");
	for (int k = 0; k < img->nopts; k++)
		ADD(img->opts[k]);
	if (img->json) {
		ADD("--json");
		ADD(json);
	}
	ADD(trace);
#undef ADD
	*len = (size_t)(p - buf);
	return buf;
}

int vm_initramfs_write(const struct vm_image *img, const char *path,
                       char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	struct vm_cpio c;
	char name[64 + NAME_MAX];

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	vm_cpio_begin(&c, f);
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		vm_cpio_dir(&c, dirs[i], 0755);
	for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++)
		vm_cpio_chardev(&c, nodes[i].name, nodes[i].major, nodes[i].minor);

	const char *bad = NULL;
	if (vm_cpio_file(&c, "init", 0755, img->init))
		bad = img->init;
	else if (vm_cpio_file(&c, "bin/vmreplay", 0755, img->replayer))
		bad = img->replayer;
	for (int i = 0; !bad && i < img->ntraces; i++) {
		size_t len;
		char *args = job_args(img, i, &len);
		snprintf(name, sizeof name, "trace/%d", i);
		vm_cpio_dir(&c, name, 0755);
		snprintf(name, sizeof name, "trace/%d/%.*s", i, NAME_MAX, trace_name(img->traces[i]));
		if (vm_cpio_file(&c, name, 0644, img->traces[i]))
			bad = img->traces[i];
		snprintf(name, sizeof name, "jobs/%d", i);
		vm_cpio_dir(&c, name, 0755);
		snprintf(name, sizeof name, "jobs/%d/args", i);
		vm_cpio_data(&c, name, 0644, args ? args : "", args ? len : 0);
		free(args);
	}
	if (bad) {
		snprintf(err, errlen, "%s: %s", bad, strerror(errno));
		fclose(f);
		return -1;
	}
	int r = vm_cpio_end(&c);
	if (fclose(f) || r) {
		snprintf(err, errlen, "%s: write failed", path);
		return -1;
	}
	return 0;
}
