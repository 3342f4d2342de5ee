/* vm_frame.c - framing of the guest's results on the serial line. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "replay/vm/vm_frame.h"

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32()) with a table built on
 * first use. */
uint32_t vm_crc32(uint32_t crc, const void *buf, size_t len)
{
	static uint32_t table[256];
	const unsigned char *p = buf;

	if (!table[1])
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int vm_frame_write(int fd, const char *name, const void *data, size_t len)
{
	char head[128];
	int n = snprintf(head, sizeof head, VM_FRAME_MAGIC " %s %zu %08x\n",
	                 name, len, vm_crc32(0, data, len));

	if (n < 0 || (size_t)n >= sizeof head)
		return errno = EINVAL, -1;
	if (write_all(fd, head, (size_t)n) || write_all(fd, data, len) ||
	    write_all(fd, "\n", 1))
		return -1;
	return 0;
}

/* The next frame header at or after *pos, parsed; 0 when there is none. */
static int next_header(const char *buf, size_t len, size_t *pos,
                       struct vm_frame *f, unsigned *crc)
{
	static const char magic[] = VM_FRAME_MAGIC " ";

	for (size_t i = *pos; i + sizeof magic - 1 <= len; i++) {
		if ((i && buf[i - 1] != '\n') || memcmp(buf + i, magic, sizeof magic - 1))
			continue;
		const char *eol = memchr(buf + i, '\n', len - i);
		if (!eol)
			return 0;
		char line[160];
		size_t ll = (size_t)(eol - (buf + i));
		if (ll >= sizeof line)
			continue;
		memcpy(line, buf + i, ll);
		line[ll] = 0;
		char fmt[48];
		snprintf(fmt, sizeof fmt, VM_FRAME_MAGIC " %%%ds %%zu %%x", VM_FRAME_NAME_MAX - 1);
		if (sscanf(line, fmt, f->name, &f->len, crc) != 3)
			continue;
		*pos = (size_t)(eol - buf) + 1;
		return 1;
	}
	return 0;
}

int vm_frames_parse(const char *buf, size_t len, struct vm_frame *frames,
                    int max, char *err, size_t errlen)
{
	size_t pos = 0;
	int n = 0;
	struct vm_frame f;
	unsigned crc;

	while (next_header(buf, len, &pos, &f, &crc)) {
		if (f.len > len - pos) {
			snprintf(err, errlen, "frame '%s' cut short (%zu of %zu bytes)",
			         f.name, len - pos, f.len);
			return -1;
		}
		f.data = buf + pos;
		if (vm_crc32(0, f.data, f.len) != crc) {
			snprintf(err, errlen, "frame '%s' has a bad checksum", f.name);
			return -1;
		}
		pos += f.len;
		if (n == max) {
			snprintf(err, errlen, "more than %d frames", max);
			return -1;
		}
		frames[n++] = f;
		if (!strcmp(f.name, "end"))
			return n;
	}
	snprintf(err, errlen, n ? "transfer ended after %d frames without an end frame"
	                        : "no results came back", n);
	return -1;
}

const struct vm_frame *vm_frame_find(const struct vm_frame *frames, int n,
                                     const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(frames[i].name, name))
			return &frames[i];
	return NULL;
}
