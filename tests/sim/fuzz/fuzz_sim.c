/* fuzz_sim.c - libFuzzer harness for the simulator: any bytes, read as a
 * release and a sequence of system calls, page touches and forks, must give
 * results or clean failures -- never a crash, a hang, a tree out of order,
 * or a refusal without the rule that made it.  Built by `make fuzz`;
 * tests/sim/fuzz_corpus_test.c replays the kept corpus in make check.
 *
 * Input: byte 0 picks the profile; then records of 1 + 24 bytes: an
 * opcode, then three 64-bit words.  Addresses fall in a 1 GiB window (most
 * often page-aligned, so calls get past their argument checks) unless the
 * opcode's high bit asks for the word as it is (overflows, unaligned
 * starts, lengths past TASK_SIZE: what a damaged or hostile trace holds). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "replay/sim/sim.h"
#include "replay/sim/sim_int.h"

#define FZ_BASE 0x7f0000000000ull
#define FZ_WINDOW (1ull << 30)

static const int fz_sys[] = {
	VMT_SYS_MMAP, VMT_SYS_MUNMAP, VMT_SYS_MREMAP, VMT_SYS_MPROTECT, VMT_SYS_MADVISE,
	VMT_SYS_MLOCK, VMT_SYS_MLOCK2, VMT_SYS_MUNLOCK, VMT_SYS_MLOCKALL, VMT_SYS_MUNLOCKALL,
	VMT_SYS_MSEAL, VMT_SYS_BRK, VMT_SYS_PKEY_MPROTECT,
};
#define FZ_NSYS (sizeof fz_sys / sizeof fz_sys[0])
enum { FZ_TOUCH = FZ_NSYS, FZ_FORK, FZ_NOPS };

static const uint64_t fz_mmap_flags[] = {
	MAP_PRIVATE | MAP_ANONYMOUS, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, MAP_SHARED | MAP_ANONYMOUS,
	MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK,
	MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED | MAP_FIXED,
	MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_GROWSDOWN, MAP_PRIVATE, MAP_ANONYMOUS | 0x08,
};
static const uint64_t fz_advice[] = {
	MADV_NORMAL, MADV_RANDOM, MADV_DONTFORK, MADV_DOFORK, MADV_WIPEONFORK, MADV_HUGEPAGE,
	MADV_NOHUGEPAGE, MADV_DONTNEED, MADV_FREE, MADV_POPULATE_READ, MADV_POPULATE_WRITE, 102, 103,
};

static uint64_t fz_word(const uint8_t *p)
{
	uint64_t w;
	memcpy(&w, p, sizeof w);
	return w;
}

/* an address in the window: page-aligned unless the low bit asks */
static uint64_t fz_addr(uint64_t w)
{
	uint64_t a = FZ_BASE + (w % (FZ_WINDOW / SIM_PAGE)) * SIM_PAGE;
	return (w >> 63) ? a + (w >> 40 & 0xfff) : a;
}

static uint64_t fz_len(uint64_t w)
{
	return ((w & 0x3ff) + (w >> 62 ? 0 : 1)) * SIM_PAGE;
}

/* the invariants every step keeps */
static void fz_check(const struct sim_mm *mm, const struct vr_result *r)
{
	struct sim_vma_view v;
	uint64_t end = 0;
	size_t n = 0;
	if (!sim_tree_valid(&mm->tree))
		abort();
	for (size_t i = 0; sim_vma_at(mm, i, &v) == 0; i++, n++) {
		if (v.start >= v.end || v.start < end || (v.start | v.end) & (SIM_PAGE - 1)) {
			fprintf(stderr, "fuzz_sim: VMA %zu [%#llx, %#llx) after one ending at %#llx\n", i,
			        (unsigned long long)v.start, (unsigned long long)v.end, (unsigned long long)end);
			abort();
		}
		end = v.end;
	}
	if (n != mm->tree.count)
		abort();
	if (r && r->err && !(r->rule && *r->rule))
		abort();   /* a refusal that names no rule */
}

static void fz_call(struct sim_mm *mm, uint8_t op, const uint8_t *p)
{
	struct vmt_event ev = { 0 };
	struct vr_result r;
	uint64_t w0 = fz_word(p), w1 = fz_word(p + 8), w2 = fz_word(p + 16);
	int raw = op & 0x80, sys = fz_sys[(op & 0x7f) % FZ_NOPS];   /* < FZ_NSYS here */

	ev.sys = (uint16_t)sys;
	ev.args[0] = raw ? w0 : fz_addr(w0);
	ev.args[1] = raw ? w1 : fz_len(w1);
	ev.args[2] = w2 & 7;   /* prot */
	ev.args[3] = 0;
	switch (sys) {
	case VMT_SYS_MMAP:
		if (!raw && !(w2 >> 8 & 1))
			ev.args[0] = 0;   /* placed by the model */
		ev.args[3] = raw ? w2 >> 8 : fz_mmap_flags[(w2 >> 8) % (sizeof fz_mmap_flags / sizeof *fz_mmap_flags)];
		ev.args[4] = (uint64_t)-1;
		break;
	case VMT_SYS_MREMAP:
		ev.args[2] = raw ? w2 : fz_len(w2);
		ev.args[3] = (w2 >> 32) & 7;
		ev.args[4] = raw ? w1 ^ w2 : fz_addr(w2 >> 20);
		break;
	case VMT_SYS_MADVISE:
		ev.args[2] = raw ? w2 : fz_advice[w2 % (sizeof fz_advice / sizeof *fz_advice)];
		break;
	case VMT_SYS_MLOCK2: case VMT_SYS_MLOCKALL:
		ev.args[sys == VMT_SYS_MLOCKALL ? 0 : 2] = w2 & 7;
		break;
	case VMT_SYS_MSEAL:
		ev.args[2] = raw ? w2 : 0;
		break;
	case VMT_SYS_PKEY_MPROTECT:
		ev.args[3] = (uint64_t)(int64_t)((w2 >> 8) % 3) - 1;
		break;
	}
	sim_apply(mm, &ev, NULL, &r);
	if (getenv("FUZZ_SIM_TRACE"))
		fprintf(stderr, "fuzz_sim: %s(%#llx, %#llx, %#llx, %#llx, %#llx) = %lld (errno %d)\n", vmt_sys_name(sys),
		        (unsigned long long)ev.args[0], (unsigned long long)ev.args[1], (unsigned long long)ev.args[2],
		        (unsigned long long)ev.args[3], (unsigned long long)ev.args[4], (long long)r.ret, r.err);
	if (r.err && !(r.rule && *r.rule))
		fprintf(stderr, "fuzz_sim: %s(%#llx, %#llx, %#llx, %#llx, %#llx) failed with errno %d and no rule\n",
		        vmt_sys_name(sys), (unsigned long long)ev.args[0], (unsigned long long)ev.args[1],
		        (unsigned long long)ev.args[2], (unsigned long long)ev.args[3], (unsigned long long)ev.args[4], r.err);
	fz_check(mm, &r);
}

static void fz_touch(struct sim_mm *mm, const uint8_t *p)
{
	uint64_t w0 = fz_word(p), w1 = fz_word(p + 8), w2 = fz_word(p + 16);
	uint8_t bits[8];
	struct vmt_residency res = { 0 };

	memcpy(bits, &w2, sizeof bits);
	res.start = w0 >> 63 ? w0 << 1 : FZ_BASE + (w0 % FZ_WINDOW);   /* any byte address */
	res.npages = w1 % 65;                                   /* what bits holds */
	res.bits = bits;
	sim_touch(mm, &res);
	fz_check(mm, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_mm *mm[2] = { NULL, NULL };
	if (!size)
		return 0;
	mm[0] = sim_mm_new(sim_profile_at(data[0] % sim_profile_count()), NULL, NULL);
	if (!mm[0])
		abort();
	sim_mm_set_mmap_base(mm[0], FZ_BASE + FZ_WINDOW);
	sim_mm_set_brk(mm[0], FZ_BASE + FZ_WINDOW / 2, FZ_BASE + FZ_WINDOW / 2);
	int cur = 0;
	for (size_t at = 1; at + 25 <= size; at += 25) {
		uint8_t op = data[at];
		const uint8_t *p = data + at + 1;
		switch ((op & 0x7f) % FZ_NOPS) {
		case FZ_TOUCH:
			fz_touch(mm[cur], p);
			break;
		case FZ_FORK:
			/* the other address space: a fork child of this one */
			sim_mm_free(mm[!cur]);
			mm[!cur] = sim_mm_fork(mm[cur]);
			if (mm[!cur]) {
				fz_check(mm[!cur], NULL);
				cur = !cur;
			}
			break;
		default:
			fz_call(mm[cur], op, p);
		}
	}
	sim_mm_free(mm[0]);
	sim_mm_free(mm[1]);
	return 0;
}
