/* membudget.c - the replay's memory budget: parsing, default, measuring. */
#include <ctype.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "replay/membudget.h"

int rp_mem_parse(const char *arg, uint64_t *bytes)
{
	if (strcmp(arg, "none") == 0) {
		*bytes = 0;
		return 0;
	}
	if (!isdigit((unsigned char)arg[0]))
		return -1;
	char *end;
	double v = strtod(arg, &end);
	uint64_t unit = 1;
	switch (*end) {
	case 'k': case 'K': unit = 1ull << 10; end++; break;
	case 'm': case 'M': unit = 1ull << 20; end++; break;
	case 'g': case 'G': unit = 1ull << 30; end++; break;
	case 't': case 'T': unit = 1ull << 40; end++; break;
	case '%':
		if (v > 100)
			return -1;
		*bytes = (uint64_t)((double)rp_mem_total() * v / 100.0);
		return end[1] ? -1 : 0;
	}
	if (*end == 'i' && unit > 1)   /* 512MiB */
		end++;
	if (*end == 'B' && unit > 1)
		end++;
	if (*end || !(v >= 0) || v * (double)unit > 9.0e18)
		return -1;
	*bytes = (uint64_t)(v * (double)unit);
	return 0;
}

/* The first number in file path, or 0. */
static uint64_t read_number(const char *path, const char *key)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	const char *p = buf;
	if (key && !(p = strstr(buf, key)))
		return 0;
	if (key)
		p += strlen(key);
	while (*p && !isdigit((unsigned char)*p))
		if (*p++ == '\n')
			return 0;   /* "max" and the like */
	return strtoull(p, NULL, 10);
}

/* This process's memory cgroup's limit (its own; a parent's lower limit is
 * not looked for), or 0: none known. */
static uint64_t cgroup_limit(void)
{
	char buf[4096], path[4200];
	int fd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	uint64_t lim = 0;
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		uint64_t l = 0;
		if (strncmp(line, "0::", 3) == 0) {
			snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.max", line + 3);
			l = read_number(path, NULL);
		} else {
			char *c = strchr(line, ':'), *d = c ? strchr(c + 1, ':') : NULL;
			if (c && d && (size_t)(d - c - 1) == 6 && strncmp(c + 1, "memory", 6) == 0) {
				snprintf(path, sizeof path, "/sys/fs/cgroup/memory%s/memory.limit_in_bytes", d + 1);
				l = read_number(path, NULL);
			}
		}
		if (l && (!lim || l < lim))
			lim = l;
	}
	return lim;
}

uint64_t rp_mem_total(void)
{
	uint64_t ram = read_number("/proc/meminfo", "MemTotal:") << 10;
	uint64_t cg = cgroup_limit();
	if (!ram)
		ram = 1ull << 30;
	return cg && cg < ram ? cg : ram;
}

uint64_t rp_mem_default(void) { return rp_mem_total() / 2; }

int64_t rp_mem_resident(pid_t pid)
{
	char path[48], buf[128];
	if (pid)
		snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
	else
		strcpy(path, "/proc/self/statm");
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	unsigned long long size, resident;
	if (sscanf(buf, "%llu %llu", &size, &resident) != 2)
		return -1;
	return (int64_t)resident * sysconf(_SC_PAGESIZE);
}

void rp_mem_format(uint64_t bytes, char *buf, size_t size)
{
	if (bytes >= (1ull << 30))
		snprintf(buf, size, "%.1f GiB", (double)bytes / (double)(1ull << 30));
	else
		snprintf(buf, size, "%" PRIu64 " MiB", (bytes + (1u << 19)) >> 20);
}
