/* vmtrace_strace_mem.c - the strace-printed calls whose arguments strace
 * read from the program's memory, read back: prctl (its option decides
 * the row; PR_SET_VMA's name), ioctl (only UFFDIO_REGISTER and
 * UFFDIO_UNREGISTER are rows; their struct) and process_madvise (its
 * iovec).  What the memory held becomes the call's RANGES record, as the
 * recorder writes it; the pointers themselves are not in the log (0). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/sysfmt.h"
#include "analysis/vmtrace_strace.h"

#define SYS_ioctl_ 16
#define SYS_prctl_ 157
#define SYS_process_madvise_ 440
#define PR_SET_VMA_ 0x53564d41u

static int number(const char *s, uint64_t *out)
{
	char *end;
	if (!strcmp(s, "NULL")) {
		*out = 0;
		return 0;
	}
	errno = 0;
	*out = s[0] == '-' ? (uint64_t)strtoll(s, &end, 0) : strtoull(s, &end, 0);
	while (*end == ' ')
		end++;
	/* "0x43 /- PR_??? -/": a number strace could not name */
	return errno || end == s || (*end && strncmp(end, "/*", 2)) ? -1 : 0;
}

/* A named value of table t, or a number (with strace's comment). */
static int value(const struct sysfmt_table *t, const char *s, uint64_t *out)
{
	return sysfmt_parse_value(t, s, out) == 0 || number(s, out) == 0 ? 0 : -1;
}

/* "key=VALUE" inside a struct as strace prints it: VALUE's text. */
static int field(const char *s, const char *key, char *buf, size_t cap)
{
	size_t klen = strlen(key);
	for (const char *p = s; (p = strstr(p, key)); p++) {
		if (p[klen] != '=' || (p > s && p[-1] != '{' && p[-1] != ' '))
			continue;
		p += klen + 1;
		size_t n = strcspn(p, ",}");
		if (n >= cap)
			return -1;
		memcpy(buf, p, n);
		buf[n] = '\0';
		return 0;
	}
	return -1;
}

static int grow(struct strace_strings *str, size_t n)
{
	if (n <= str->rv_cap)
		return 0;
	size_t cap = str->rv_cap ? str->rv_cap * 2 : 8;
	while (cap < n)
		cap *= 2;
	struct vmt_range *r = realloc(str->rv, cap * sizeof(*r));
	if (!r)
		return -1;
	str->rv = r;
	str->rv_cap = cap;
	return 0;
}

/* The row of the call now that its registers are known: -1 for none. */
static int row(long nr, struct vmt_event *ev)
{
	int sys = vmt_sys_of_call(nr, ev->args);
	if (sys == VMT_SYS_NONE)
		return -1;
	ev->sys = (uint16_t)sys;
	return 0;
}

int strace_decode_prctl(char **argv, int argc, struct vmt_event *ev, struct strace_strings *str)
{
	if (argc < 1 || value(&sysfmt_prctl, argv[0], &ev->args[0]) < 0)
		return -1;   /* an option the table has no row for, by name */
	if (row(SYS_prctl_, ev) < 0)
		return -1;
	if (argc != 5)
		return -2;
	if ((uint32_t)ev->args[0] != PR_SET_VMA_) {
		for (int i = 1; i < 5; i++)
			if (number(argv[i], &ev->args[i]) < 0)
				return -2;
		return 0;
	}
	/* PR_SET_VMA, PR_SET_VMA_ANON_NAME, ADDR, LEN, "NAME" */
	if (!strcmp(argv[1], "PR_SET_VMA_ANON_NAME"))
		ev->args[1] = 0;
	else if (number(argv[1], &ev->args[1]) < 0)
		return -2;
	if (number(argv[2], &ev->args[2]) < 0 || number(argv[3], &ev->args[3]) < 0)
		return -2;
	struct vmt_ranges *r = &str->ranges;
	*r = (struct vmt_ranges){ .kind = VMT_RANGES_VMA_NAME };
	if (argv[4][0] == '"') {
		char *end = strace_unquote(argv[4]);
		if (!end || (*end && strcmp(end, "...")))
			return -2;
		r->name_how = *end || strlen(argv[4]) > VMT_NAME_MAX ? VMT_NAME_FAULT : VMT_NAME_STR;
		r->name = r->name_how == VMT_NAME_STR ? argv[4] : NULL;
		ev->args[4] = 0;
	} else if (number(argv[4], &ev->args[4]) < 0) {
		return -2;
	} else {
		r->name_how = ev->args[4] ? VMT_NAME_FAULT : VMT_NAME_NULL;
	}
	str->has_ranges = 1;
	return 0;
}

int strace_decode_ioctl(char **argv, int argc, struct vmt_event *ev, struct strace_strings *str)
{
	if (argc < 2 || value(&sysfmt_uffd_cmd, argv[1], &ev->args[1]) < 0)
		return -1;   /* TCGETS & co. */
	if (row(SYS_ioctl_, ev) < 0)
		return -1;
	if (argc != 3 || number(argv[0], &ev->args[0]) < 0)
		return -2;
	const char *s = argv[2];
	if (s[0] != '{')
		return number(s, &ev->args[2]) < 0 ? -2 : 0;   /* not read: its address */
	char buf[128];
	uint64_t start, len;
	if (field(s, "start", buf, sizeof buf) < 0 || number(buf, &start) < 0 ||
	    field(s, "len", buf, sizeof buf) < 0 || number(buf, &len) < 0)
		return -2;
	if (grow(str, 1) < 0)
		return -2;
	str->rv[0] = (struct vmt_range){ start, len };
	struct vmt_ranges *r = &str->ranges;
	*r = (struct vmt_ranges){ .kind = (uint32_t)vmt_sys_ranges(ev->sys), .n = 1, .ranges = str->rv };
	if (r->kind == VMT_RANGES_UFFDIO_REGISTER) {
		if (field(s, "mode", buf, sizeof buf) < 0 || value(&sysfmt_uffd_mode, buf, &r->mode) < 0)
			return -2;
		if (field(s, "ioctls", buf, sizeof buf) == 0 && value(&sysfmt_uffd_ioctls, buf, &r->ioctls) < 0)
			return -2;
	}
	str->has_ranges = 1;
	return 0;
}

/* process_madvise(FD, [{iov_base=A, iov_len=N}, ...], VLEN, ADVICE, FLAGS) */
int strace_decode_process_madvise(char **argv, int argc, struct vmt_event *ev,
                                  struct strace_strings *str)
{
	ev->sys = VMT_SYS_PROCESS_MADVISE;
	if (argc != 5 || number(argv[0], &ev->args[0]) < 0 || number(argv[2], &ev->args[2]) < 0 ||
	    value(&sysfmt_madvise, argv[3], &ev->args[3]) < 0 || number(argv[4], &ev->args[4]) < 0)
		return -2;
	const char *s = argv[1];
	if (s[0] != '[')
		return number(s, &ev->args[1]) < 0 ? -2 : 0;
	uint32_t n = 0;
	for (const char *p = s; (p = strstr(p, "{iov_base=")); p++) {
		char buf[64];
		uint64_t base, len;
		if (field(p, "iov_base", buf, sizeof buf) < 0 || number(buf, &base) < 0 ||
		    field(p, "iov_len", buf, sizeof buf) < 0 || number(buf, &len) < 0 ||
		    n >= VMT_RANGES_MAX || grow(str, n + 1) < 0)
			return -2;
		str->rv[n++] = (struct vmt_range){ base, len };
	}
	if (!n)
		return -2;
	str->ranges = (struct vmt_ranges){ .kind = VMT_RANGES_IOVEC, .n = n, .ranges = str->rv };
	str->has_ranges = 1;
	return 0;
}
