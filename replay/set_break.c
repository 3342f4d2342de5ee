#include <errno.h>
#include <fcntl.h>
#include <linux/prctl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "replay/set_break.h"

/* The fields of /proc/self/stat that PR_SET_MM_MAP must be given again
 * (proc(5) numbers them from 1; the ones after the command name). */
static const struct { unsigned field; size_t at; } stat_fields[] = {
	{ 26, offsetof(struct prctl_mm_map, start_code) },
	{ 27, offsetof(struct prctl_mm_map, end_code) },
	{ 28, offsetof(struct prctl_mm_map, start_stack) },
	{ 45, offsetof(struct prctl_mm_map, start_data) },
	{ 46, offsetof(struct prctl_mm_map, end_data) },
	{ 47, offsetof(struct prctl_mm_map, start_brk) },
	{ 48, offsetof(struct prctl_mm_map, arg_start) },
	{ 49, offsetof(struct prctl_mm_map, arg_end) },
	{ 50, offsetof(struct prctl_mm_map, env_start) },
	{ 51, offsetof(struct prctl_mm_map, env_end) },
};

/* The process's layout as it is now; the auxv and exe file unchanged.
 * Read without stdio: the replayer allocates nothing while it replays. */
static int current_map(struct prctl_mm_map *m)
{
	char buf[2048];
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	char *p = strrchr(buf, ')');   /* the command name may hold anything */
	if (!p)
		return -EIO;
	memset(m, 0, sizeof(*m));
	unsigned field = 3;
	for (p++; *p; field++) {
		while (*p == ' ')
			p++;
		char *end;
		unsigned long long v = strtoull(p, &end, 10);
		for (size_t i = 0; i < sizeof(stat_fields) / sizeof(stat_fields[0]); i++)
			if (stat_fields[i].field == field)
				*(uint64_t *)((char *)m + stat_fields[i].at) = v;
		if (end == p)
			end++;   /* the state letter */
		p = end;
	}
	m->brk = (uint64_t)syscall(SYS_brk, 0);
	m->exe_fd = (uint32_t)-1;
	return 0;
}

static int set_map(struct prctl_mm_map *m)
{
	return prctl(PR_SET_MM, PR_SET_MM_MAP, (unsigned long)m, sizeof(*m), 0) < 0 ? -errno : 0;
}

int set_break_at(uint64_t at)
{
	struct prctl_mm_map m;
	int err = current_map(&m);
	if (err)
		return err;
	m.start_brk = m.brk = at;
	return set_map(&m);
}

int set_break_possible(void)
{
	struct prctl_mm_map m;
	return current_map(&m) == 0 && set_map(&m) == 0;
}
