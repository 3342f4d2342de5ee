/* vmt_host.c - describe this machine for the trace header.  The shim calls
 * this inside the recorded program, so: no malloc, no stdio, stack buffers
 * and raw open/read only. */
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "vmt.h"

/* Read up to size-1 bytes of a small file, NUL-terminated; 0 if missing. */
static size_t read_small(const char *path, char *buf, size_t size)
{
	size_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	buf[0] = 0;
	if (fd < 0)
		return 0;
	while (n < size - 1) {
		ssize_t r = read(fd, buf + n, size - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = 0;
	return n;
}

static void copy_str(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = 0;
}

static uint64_t parse_u64(const char *s)
{
	uint64_t v = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (uint64_t)(*s++ - '0');
	return v;
}

static uint64_t read_u64(const char *path)
{
	char buf[64];
	return read_small(path, buf, sizeof(buf)) ? parse_u64(buf) : 0;
}

/* "always [madvise] never" -> "madvise" */
static void read_selected(const char *path, char *out, size_t size)
{
	char buf[256];
	char *open_br, *close_br;

	out[0] = 0;
	if (!read_small(path, buf, sizeof(buf)))
		return;
	open_br = strchr(buf, '[');
	close_br = open_br ? strchr(open_br, ']') : NULL;
	if (close_br)
		copy_str(out, size, open_br + 1, (size_t)(close_br - open_br - 1));
}

static void read_cpu_model(char *out, size_t size)
{
	char buf[4096];
	const char *p, *colon, *eol;

	out[0] = 0;
	if (!read_small("/proc/cpuinfo", buf, sizeof(buf)))
		return;
	p = strstr(buf, "model name");
	if (!p || !(colon = strchr(p, ':')))
		return;
	colon++;
	while (*colon == ' ' || *colon == '\t')
		colon++;
	eol = strchr(colon, '\n');
	copy_str(out, size, colon, eol ? (size_t)(eol - colon) : strlen(colon));
}

/* /sys/devices/system/cpu/online: "0-3,6,8-9" */
static uint32_t count_online_cpus(void)
{
	char buf[1024];
	const char *p = buf;
	uint32_t n = 0;

	if (!read_small("/sys/devices/system/cpu/online", buf, sizeof(buf)))
		return 0;
	while (*p >= '0' && *p <= '9') {
		uint64_t lo = parse_u64(p), hi = lo;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '-') {
			hi = parse_u64(++p);
			while (*p >= '0' && *p <= '9')
				p++;
		}
		if (hi >= lo)
			n += (uint32_t)(hi - lo + 1);
		if (*p == ',')
			p++;
	}
	return n;
}

void vmt_host_probe(struct vmt_host *h)
{
	struct utsname u;
	struct sysinfo si;
	const char *glibc = gnu_get_libc_version();

	memset(h, 0, sizeof(*h));
	if (uname(&u) == 0) {
		copy_str(h->kernel, sizeof(h->kernel), u.release, strlen(u.release));
		copy_str(h->machine, sizeof(h->machine), u.machine, strlen(u.machine));
	}
	read_cpu_model(h->cpu, sizeof(h->cpu));
	copy_str(h->glibc, sizeof(h->glibc), glibc, strlen(glibc));
	read_selected("/sys/kernel/mm/transparent_hugepage/enabled",
	              h->thp_enabled, sizeof(h->thp_enabled));
	read_selected("/sys/kernel/mm/transparent_hugepage/defrag",
	              h->thp_defrag, sizeof(h->thp_defrag));
	h->page_size = (uint32_t)getauxval(AT_PAGESZ);
	h->cores = count_online_cpus();
	if (sysinfo(&si) == 0)
		h->memory_bytes = (uint64_t)si.totalram * si.mem_unit;
	h->hpage_pmd_size = read_u64("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
	h->max_map_count = read_u64("/proc/sys/vm/max_map_count");
	h->mmap_min_addr = read_u64("/proc/sys/vm/mmap_min_addr");
}
