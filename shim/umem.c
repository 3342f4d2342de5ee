/* umem.c - see umem.h. */
#include "umem.h"
#include "capture.h"
#include "raw.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#define BATCH 64   /* remote pieces per process_vm_readv */

/* per thread: a vfork child (its own pid) may read while another thread of
 * its parent does */
static __thread int32_t self __attribute__((tls_model("initial-exec")));

void umem_self(int32_t pid) { self = pid; }

/* process_vm_readv of pieces into one local buffer: the bytes read (the
 * kernel stops at the first piece it cannot read whole), or -1 when the
 * call itself is refused. */
static long readv_self(void *dst, size_t len, const struct iovec *remote, size_t n)
{
	static __thread int refused __attribute__((tls_model("initial-exec")));
	struct iovec local = { dst, len };
	if (refused)
		return -1;
	long r = raw6(SYS_process_vm_readv, self, (long)&local, 1, (long)remote, (long)n, 0);
	if (!raw_failed(r))
		return r;
	if (r == -EFAULT)
		return 0;
	refused = r == -EPERM || r == -ENOSYS;   /* a filter: it will say so again */
	return -1;
}

/* The fallback: loads, element by element, up to the first zero one. */
static size_t copy_plain(void *dst, const void *src, size_t n, size_t unit)
{
	size_t i = 0;
	if (unit == 8) {
		for (; i + 8 <= n; i += 8) {
			uint64_t v;
			memcpy(&v, (const char *)src + i, 8);
			memcpy((char *)dst + i, &v, 8);
			if (!v)
				return i + 8;
		}
		return i;
	}
	for (; i < n; i++)
		if (!(((char *)dst)[i] = ((const char *)src)[i]))
			return i + 1;
	return i;
}

size_t umem_copy(void *dst, const void *src, size_t n, size_t unit)
{
	struct iovec remote = { (void *)src, n };
	if (!n)
		return 0;
	long r = readv_self(dst, n, &remote, 1);
	return r >= 0 ? (size_t)r : unit ? copy_plain(dst, src, n, unit) : 0;
}

static size_t capture_read(void *opaque, void *dst, uint64_t addr, size_t n, size_t unit)
{
	(void)opaque;
	return umem_copy(dst, (const void *)(uintptr_t)addr, n, unit);
}

static void capture_heads(void *opaque, char *dst, size_t each, const uint64_t *ptrs, size_t n,
                          uint32_t *got)
{
	(void)opaque;
	umem_heads(dst, each, ptrs, n, got);
}

const struct capture_mem umem_capture = { capture_read, capture_heads, NULL };

void umem_heads(char *dst, size_t each, const uint64_t *ptrs, size_t n, uint32_t *got)
{
	struct iovec remote[BATCH];
	size_t i = 0;
	while (i < n) {
		size_t k = n - i < BATCH ? n - i : BATCH;
		for (size_t j = 0; j < k; j++)
			remote[j] = (struct iovec){ (void *)(uintptr_t)ptrs[i + j], each };
		long r = readv_self(dst + i * each, k * each, remote, k);
		if (r < 0) {                    /* refused: one by one */
			for (; i < n; i++)
				got[i] = (uint32_t)copy_plain(dst + i * each, (const void *)(uintptr_t)ptrs[i],
				                              each, 1);
			return;
		}
		/* whole pieces, then the one it stopped in; the next round
		 * goes on after that one */
		size_t whole = (size_t)r / each;
		for (size_t j = 0; j < whole; j++)
			got[i + j] = (uint32_t)each;
		i += whole;
		if (whole < k) {
			got[i] = (uint32_t)((size_t)r - whole * each);
			i++;
		}
	}
}

long umem_strlen(const char *src, size_t max)
{
	char buf[512];
	for (size_t off = 0; src && off < max; off += sizeof buf) {
		size_t want = max - off < sizeof buf ? max - off : sizeof buf;
		size_t n = umem_copy(buf, src + off, want, 1);
		char *nul = memchr(buf, 0, n);
		if (nul)
			return (long)(off + (size_t)(nul - buf));
		if (n < want)
			return -1;
	}
	return -1;
}
