/* fuzz_store.c - libFuzzer harness for the trace store's reader, what
 * `vmrec --finish` runs on a store left on disk: any store is refused, or
 * finished into a trace that then reads through the trace rules
 * (vmt_check_file, whatever it says): never a crash, a read outside the
 * file, a hang or a leak.  Built by `make fuzz`;
 * tests/trace/fuzz_store_corpus_test.c replays the kept corpus
 * (tests/trace/fuzz/store-corpus) in make check.
 *
 * A store is mostly zeros (a 256 KiB slab holds a few records), so an
 * input is the store's bytes as patches on a file of zeros: repeated
 * [32-bit gap][16-bit length][length bytes], little-endian, each patch at
 * the end of the one before plus gap (mod 8 MiB); the file is at least
 * 1 MiB.  tests/trace/fuzz/store-seed.py makes one of a real store. */
#include "tests/fuzz/fuzz.h"
#include "vmt.h"
#include "vmt_store.h"

#define FZ_STORE_MIN (1u << 20)
#define FZ_STORE_GAP (8u << 20)

/* The patches of data (above) onto an empty file at path. */
static void fz_store_write(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	uint64_t at = 0;
	if (fd < 0 || ftruncate(fd, FZ_STORE_MIN))
		abort();
	while (size >= 6) {
		uint32_t gap = (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 |
		               (uint32_t)data[3] << 24;
		size_t len = (size_t)data[4] | (size_t)data[5] << 8;
		data += 6;
		size -= 6;
		if (len > size)
			len = size;
		at += gap % FZ_STORE_GAP;
		if (len && pwrite(fd, data, len, (off_t)at) != (ssize_t)len)
			abort();
		at += len;
		data += len;
		size -= len;
	}
	if (close(fd))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char store[4200], out[4200], msg[600];
	snprintf(store, sizeof(store), "%s", fz_path("t.lz4.vmrec-store.1"));
	snprintf(out, sizeof(out), "%s", fz_path("t.lz4"));
	fz_store_write(store, data, size);
	struct vmt_store s = { 0 };
	if (vmt_store_attach(&s, store) < 0)
		return 0;
	s.head->finishing = 0;   /* as vmrec --finish: nobody else has it */
	if (vmt_store_finish(&s, out, 0600, NULL, 0, NULL, msg, sizeof(msg)) == 0) {
		vmt_check_file(out, msg, sizeof(msg));
		unlink(out);
	} else if (!msg[0]) {
		abort();   /* a refusal says why */
	}
	vmt_store_detach(&s);
	return 0;
}
