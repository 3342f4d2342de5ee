/* rules_test - rules that this kernel cannot show, pinned per profile with
 * the example from the commit that introduced them or from the real 6.1 and
 * 6.12 kernels observed in QEMU (docs/kernel-observed.md), and the
 * rule names the simulator reports. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include "tests/tap.h"
#include "replay/sim/sim.h"
#include "replay/sim/sim_int.h"   /* a profile with a by_probe rule off */
#include "replay/sim/vm_flags.h"

#define PG 4096ull
#define MB (1ull << 20)
#define BASE 0x7f0000000000ull   /* PMD-aligned mmap_base */
#define RW (PROT_READ | PROT_WRITE)
#define ANON (MAP_PRIVATE | MAP_ANONYMOUS)

static struct vr_result res;

static struct sim_mm *mk(const char *version)
{
	struct sim_mm *mm = sim_mm_new(sim_profile_find(version), NULL, NULL);
	if (mm)
		sim_mm_set_mmap_base(mm, BASE);
	return mm;
}

static int64_t call(struct sim_mm *mm, int sys, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4)
{
	struct vmt_event ev = { 0 };
	ev.sys = (uint16_t)sys;
	ev.args[0] = a0; ev.args[1] = a1; ev.args[2] = a2; ev.args[3] = a3; ev.args[4] = a4;
	sim_apply(mm, &ev, NULL, &res);
	return res.err ? -res.err : res.ret;
}

static uint64_t map(struct sim_mm *mm, uint64_t addr, uint64_t len, uint64_t prot, uint64_t flags)
{
	return (uint64_t)call(mm, VMT_SYS_MMAP, addr, len, prot, flags, (uint64_t)-1);
}

static void touch(struct sim_mm *mm, uint64_t addr)
{
	uint8_t bit = 1;
	struct vmt_residency r = { 0, 0, addr, 1, &bit, 0, NULL };
	sim_touch(mm, &r);
}

static uint64_t flags_at(struct sim_mm *mm, uint64_t addr)
{
	struct sim_vma_view v;
	for (size_t i = 0; !sim_vma_at(mm, i, &v); i++)
		if (v.start <= addr && addr < v.end)
			return v.vm_flags;
	return 0;
}

static int has_rule(const char *needle)
{
	return res.rule && strstr(res.rule, needle);
}

/* T1 efa7df3e3bb5 (6.7), T5 d4148aeab412 (6.12): docs/kernel-observed.md */
static void test_thp_alignment_of_anonymous_maps(void)
{
	static const struct { const char *v; uint64_t len; int aligned; } cases[] = {
		{ "6.1", 2 * MB, 0 }, { "6.1", 4 * MB, 0 },
		{ "6.8", 2 * MB, 1 }, { "6.8", 4 * MB + PG, 1 },       /* 6.7-6.11: any length >= PMD */
		{ "6.12", 2 * MB, 1 }, { "6.12", 4 * MB, 1 },
		{ "6.12", 1 * MB, 0 }, { "6.12", 4 * MB + PG, 0 }, { "6.12", 8 * MB + PG, 0 },
		{ "6.18", 2 * MB, 1 }, { "6.18", 4 * MB, 1 }, { "6.18", 8 * MB + PG, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct sim_mm *mm = mk(cases[i].v);
		uint64_t a;
		map(mm, 0, 5 * PG, RW, ANON);   /* base is aligned: misalign the top */
		a = map(mm, 0, cases[i].len, RW, ANON);
		is_int((a % (2 * MB)) == 0, cases[i].aligned, "%s: %llu KiB anonymous mmap %s PMD-aligned",
		       cases[i].v, (unsigned long long)cases[i].len >> 10, cases[i].aligned ? "is" : "is not");
		sim_mm_free(mm);
	}
}

/* T1 + T3 96204e15310c (6.8): an aligned search result is used from its top */
static void test_thp_alignment_keeps_top_down_order(void)
{
	struct sim_mm *mm = mk("6.12");
	is_int(map(mm, 0, 2 * MB, RW, ANON), BASE - 2 * MB, "6.12: 2 MiB just below an aligned mmap_base");
	ok(has_rule("placed PMD-aligned (6.7 efa7df3e3bb5 T1)"), "rule names T1: %s", res.rule);
	sim_mm_free(mm);
}

/* T6 249608ee4713 (6.13): with a hint (taken) no alignment */
static void test_thp_alignment_not_with_hint(void)
{
	static const struct { const char *v; int aligned; } cases[] = { { "6.12", 1 }, { "6.13", 0 } };
	for (size_t i = 0; i < 2; i++) {
		struct sim_mm *mm = mk(cases[i].v);
		uint64_t hint = BASE - 64 * MB, a;
		map(mm, 0, 5 * PG, RW, ANON);
		map(mm, hint, PG, RW, ANON | MAP_FIXED);       /* the hint is taken */
		a = map(mm, hint, 4 * MB, RW, ANON);
		is_int(a % (2 * MB) == 0, cases[i].aligned, "%s: 4 MiB mmap with a taken hint %s aligned",
		       cases[i].v, cases[i].aligned ? "is" : "is not");
		sim_mm_free(mm);
	}
}

/* docs/kernel-observed.md: a free hint is used on every release */
static void test_free_hint_is_used(void)
{
	const char *vs[] = { "6.1", "6.12", "6.18" };
	for (int i = 0; i < 3; i++) {
		struct sim_mm *mm = mk(vs[i]);
		is_int(map(mm, BASE - 64 * MB + PG, 4 * MB, RW, ANON), BASE - 64 * MB + PG, "%s: 4 MiB at a free hint", vs[i]);
		sim_mm_free(mm);
	}
}

/* T4 c4608d1bf7c6 (6.8), the commit's example: glibc's 8 MiB + 4 KiB thread
 * stack.  6.7-6.11 place it PMD-aligned (len >= PMD) and from 6.8 it is
 * VM_NOHUGEPAGE; from 6.12 it is no longer aligned but still NOHUGEPAGE. */
static void test_thread_stack_8m_plus_4k(void)
{
	static const struct { const char *v; int aligned, nohuge; } cases[] = {
		{ "6.6", 0, 0 }, { "6.8", 1, 1 }, { "6.12", 0, 1 }, { "6.18", 0, 1 },
	};
	for (int i = 0; i < 4; i++) {
		struct sim_mm *mm = mk(cases[i].v);
		uint64_t a;
		map(mm, 0, 5 * PG, RW, ANON);
		a = map(mm, 0, 8 * MB + PG, RW, ANON | MAP_STACK);
		is_int(a % (2 * MB) == 0, cases[i].aligned, "%s: 8 MiB + 4 KiB MAP_STACK %s PMD-aligned",
		       cases[i].v, cases[i].aligned ? "is" : "is not");
		is_int(!!(flags_at(mm, a) & VM_NOHUGEPAGE), cases[i].nohuge, "%s: ... %s VM_NOHUGEPAGE",
		       cases[i].v, cases[i].nohuge ? "has" : "has no");
		sim_mm_free(mm);
	}
}

/* docs/kernel-observed.md: plain anon + adjacent MAP_STACK, then another
 * plain one after it: 6.1 1 VMA, 1 VMA; 6.12 2, 3 (T4) */
static void test_stack_next_to_plain_anonymous(void)
{
	static const struct { const char *v; int n1, n2; } cases[] = { { "6.1", 1, 1 }, { "6.12", 2, 3 }, { "6.18", 2, 3 } };
	for (int i = 0; i < 3; i++) {
		struct sim_mm *mm = mk(cases[i].v);
		uint64_t a = BASE - 64 * MB;
		map(mm, a, 16 * PG, RW, ANON | MAP_FIXED);
		map(mm, a + 16 * PG, 16 * PG, RW, ANON | MAP_FIXED | MAP_STACK);
		is_int(sim_vma_count(mm), cases[i].n1, "%s: plain + MAP_STACK: %d VMA(s)", cases[i].v, cases[i].n1);
		if (cases[i].n1 == 2)
			ok(has_rule("no merge with prev: VM_NOHUGEPAGE differs (MAP_STACK, 6.8 c4608d1bf7c6 T4)"),
			   "rule: %s", res.rule);
		map(mm, a + 32 * PG, 16 * PG, RW, ANON | MAP_FIXED);
		is_int(sim_vma_count(mm), cases[i].n2, "%s: + plain after it: %d", cases[i].v, cases[i].n2);
		sim_mm_free(mm);
	}
}

/* B1 6c28ca6485dd (6.1): brk in a fork child whose heap was faulted before
 * the fork makes a new VMA; the parent's heap still expands */
static void test_brk_in_fork_child(void)
{
	const char *vs[] = { "6.1", "6.12", "6.18" };
	for (int i = 0; i < 3; i++) {
		struct sim_mm *mm = mk(vs[i]), *child;
		uint64_t heap = 0x555555560000ull;
		sim_mm_set_brk(mm, heap, heap);
		call(mm, VMT_SYS_BRK, heap + 4 * PG, 0, 0, 0, 0);
		touch(mm, heap);
		child = sim_mm_fork(mm);
		call(child, VMT_SYS_BRK, heap + 8 * PG, 0, 0, 0, 0);
		is_int(sim_vma_count(child), 2, "%s: brk in the fork child: heap 1 -> 2 VMAs", vs[i]);
		ok(has_rule("fork child"), "rule: %s", res.rule);
		call(mm, VMT_SYS_BRK, heap + 8 * PG, 0, 0, 0, 0);
		is_int(sim_vma_count(mm), 1, "%s: brk in the parent after that: 1", vs[i]);
		is_str(vr_outcome_name(res.outcome), "expand_prev", "%s: ... expand_prev", vs[i]);
		sim_mm_free(child);
		sim_mm_free(mm);
	}
}

/* copy_vma: an unfaulted source takes the pgoff of its new place and merges
 * there; a faulted one keeps its pgoff.  (The 6.18 "does not merge" of a
 * first probe, docs/kernel-observed.md, was not reproduced here: its source
 * had merged into a faulted VMA.) */
static void test_mremap_unfaulted_moves_merge(void)
{
	const char *vs[] = { "6.1", "6.12", "6.18" };
	for (int i = 0; i < 3; i++) {
		for (int faulted = 0; faulted < 2; faulted++) {
			struct sim_mm *mm = mk(vs[i]);
			uint64_t a = BASE - 64 * MB, s = a + 100 * PG;
			map(mm, a, 16 * PG, RW, ANON | MAP_FIXED);
			map(mm, s, 16 * PG, RW, ANON | MAP_FIXED);
			if (faulted)
				touch(mm, s);
			call(mm, VMT_SYS_MREMAP, s, 16 * PG, 16 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, a + 16 * PG);
			is_int(sim_vma_count(mm), faulted ? 2 : 1, "%s: %s mapping moved next to a neighbour: %d VMA(s)",
			       vs[i], faulted ? "faulted" : "unfaulted", faulted ? 2 : 1);
			sim_mm_free(mm);
		}
	}
}

/* M4 879bca0a2c4f (6.16): an unfaulted VMA next to a faulted one that gets
 * the same flags merges from 6.16, not before */
static void test_unfaulted_target_faulted_source(void)
{
	static const struct { const char *v; int n; } cases[] = { { "6.12", 2 }, { "6.16", 1 } };
	for (int i = 0; i < 2; i++) {
		struct sim_mm *mm = mk(cases[i].v);
		uint64_t a = BASE - 64 * MB;
		map(mm, a, 16 * PG, RW, ANON | MAP_FIXED);                 /* unfaulted target */
		map(mm, a + 16 * PG, 16 * PG, RW, ANON | MAP_FIXED);
		call(mm, VMT_SYS_MADVISE, a + 16 * PG, 16 * PG, MADV_DONTDUMP, 0, 0);
		touch(mm, a + 16 * PG);                                    /* faulted source */
		call(mm, VMT_SYS_MADVISE, a + 16 * PG, 16 * PG, MADV_DODUMP, 0, 0);
		is_int(sim_vma_count(mm), cases[i].n, "%s: faulted VMA made equal to an unfaulted prev: %d VMA(s)",
		       cases[i].v, cases[i].n);
		if (cases[i].n == 2)
			ok(has_rule("allowed from 6.16 879bca0a2c4f M4"), "rule: %s", res.rule);
		sim_mm_free(mm);
	}
}

/* docs/kernel-observed.md: mprotect of a middle third, then restored */
static void test_mprotect_middle_and_back(void)
{
	struct sim_mm *mm = mk("6.1");
	uint64_t a = BASE - 64 * MB;
	map(mm, a, 30 * PG, RW, ANON | MAP_FIXED);
	touch(mm, a);
	call(mm, VMT_SYS_MPROTECT, a + 10 * PG, 10 * PG, PROT_READ, 0, 0);
	is_int(sim_vma_count(mm), 3, "6.1: middle third read-only: 3 VMAs");
	is_str(vr_outcome_name(res.outcome), "split", "... split");
	call(mm, VMT_SYS_MPROTECT, a + 10 * PG, 10 * PG, RW, 0, 0);
	is_int(sim_vma_count(mm), 1, "6.1: restored: 1 VMA");
	is_str(vr_outcome_name(res.outcome), "merge_both", "... merge_both");
	sim_mm_free(mm);
}

/* X1 8be7258aad44 (6.10), X3 662df3e5c376 (6.13) */
static void test_calls_that_a_release_lacks(void)
{
	struct sim_mm *mm = mk("6.8"), *m12 = mk("6.12");
	uint64_t a = BASE - 64 * MB;
	map(mm, a, 4 * PG, RW, ANON | MAP_FIXED);
	map(m12, a, 4 * PG, RW, ANON | MAP_FIXED);
	is_int(call(mm, VMT_SYS_MSEAL, a, 4 * PG, 0, 0, 0), -ENOSYS, "6.8: mseal is ENOSYS");
	is_int(call(m12, VMT_SYS_MSEAL, a, 4 * PG, 0, 0, 0), 0, "6.12: mseal works");
	is_int(call(m12, VMT_SYS_MUNMAP, a, PG, 0, 0, 0), -EPERM, "6.12: munmap of a sealed VMA is EPERM");
	is_int(call(m12, VMT_SYS_MADVISE, a, PG, 102, 0, 0), -EINVAL, "6.12: MADV_GUARD_INSTALL is EINVAL");
	sim_mm_free(m12);
	m12 = mk("6.13");
	map(m12, a, 4 * PG, RW, ANON | MAP_FIXED);
	is_int(call(m12, VMT_SYS_MADVISE, a, PG, 102, 0, 0), 0, "6.13: MADV_GUARD_INSTALL works");
	is_str(vr_outcome_name(res.outcome), "unchanged", "... and changes no VMA");
	sim_mm_free(m12);
	sim_mm_free(mm);
}

/* The VMAs from a on, relative to it in pages, with their smaps flags:
 * "+0-+2 [mr mw me] +2-+4 [rd mr mw me ac]" */
static const char *layout(struct sim_mm *mm, uint64_t a)
{
	static char out[512];
	struct sim_vma_view v;
	size_t n = 0;

	out[0] = 0;
	for (size_t i = 0; !sim_vma_at(mm, i, &v); i++) {
		char f[128];
		if (v.end <= a || n >= sizeof out - 160)
			continue;
		n += (size_t)snprintf(out + n, sizeof out - n, "%s+%llu-+%llu [%s]", n ? " " : "",
		                      (unsigned long long)((v.start - a) / PG), (unsigned long long)((v.end - a) / PG),
		                      sim_flags_smaps(v.vm_flags & ~VM_SOFTDIRTY, f, sizeof f));
	}
	return out;
}

/* Z1 a13ea5b75964 (zero page for read faults): every release has it;
 * `host` only when its probe sees it (6.18.44-fc-v669 does, -fc-v782 did
 * not).  The diff.t reproducers of seeds 31, 11 and 40, on 6.18 and on a
 * host without Z1. */
static void test_read_only_populate_zero_page(void)
{
	static struct sim_profile noz1;
	const struct sim_profile *ps[2];
	static const char *name[2] = { "host without Z1", "6.18" };
	static const char *want_none[2] = { "+0-+2 [mr mw me ac]", "+0-+2 [mr mw me]" };
	static const char *want_move[2] = {
		"+0-+2 [rd ex mr mw me] +2-+8 [rd ex mr mw me] +8-+20 [rd ex mr mw me] +24-+32 [rd ex mr mw me]",
		"+0-+20 [rd ex mr mw me] +24-+32 [rd ex mr mw me]" };
	static const char *want_mid[2] = {
		"+0-+48 [rd wr mr mw me ac] +48-+118 [rd mr mw me ac] +118-+512 [rd wr mr mw me ac]",
		"+0-+48 [rd wr mr mw me ac] +48-+118 [rd mr mw me] +118-+512 [rd wr mr mw me ac]" };
	static const char *want_thp[2] = {
		"+0-+1024 [rd mr mw me ac hg] +1536-+1792 [rd mr mw me ac hg]",
		"+0-+1024 [rd mr mw me ac hg] +1536-+1792 [rd mr mw me hg]" };
	uint64_t a = BASE - 64 * MB;

	noz1 = *sim_profile_find("6.18");
	noz1.probes = true;
	noz1.probed = 0;
	ps[0] = &noz1;
	ps[1] = sim_profile_find("6.18");
	for (int i = 0; i < 2; i++) {
		struct sim_mm *mm = sim_mm_new(ps[i], NULL, NULL);

		sim_mm_set_mmap_base(mm, BASE);
		map(mm, a, 2 * PG, PROT_READ | PROT_EXEC, ANON | MAP_FIXED | MAP_POPULATE);
		call(mm, VMT_SYS_MPROTECT, a, 2 * PG, RW, 0, 0);
		call(mm, VMT_SYS_MPROTECT, a, 2 * PG, PROT_NONE, 0, 0);
		is_str(layout(mm, a), want_none[i], "%s: populated r-x made rw, then ---: VM_ACCOUNT %s",
		       name[i], i ? "dropped (no anon_vma)" : "kept");
		call(mm, VMT_SYS_MUNMAP, a, 2 * PG, 0, 0, 0);

		map(mm, a, 32 * PG, PROT_READ | PROT_EXEC, ANON | MAP_FIXED | MAP_POPULATE);
		call(mm, VMT_SYS_MREMAP, a + 20 * PG, 4 * PG, 6 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, a + 2 * PG);
		is_str(layout(mm, a), want_move[i], "%s: a piece of a populated r-x VMA moved and grown inside it %s",
		       name[i], i ? "merges (takes the pgoff of its new address)" : "keeps its pgoff");
		call(mm, VMT_SYS_MUNMAP, a, 32 * PG, 0, 0, 0);

		map(mm, a, 2 * MB, PROT_READ | PROT_EXEC, ANON | MAP_FIXED | MAP_POPULATE);
		call(mm, VMT_SYS_MPROTECT, a, 2 * MB, RW, 0, 0);
		call(mm, VMT_SYS_MPROTECT, a + 48 * PG, 70 * PG, PROT_READ, 0, 0);
		is_str(layout(mm, a), want_mid[i], "%s: the middle of a populated r-x VMA made rw, then r--", name[i]);
		call(mm, VMT_SYS_MUNMAP, a, 2 * MB, 0, 0, 0);

		/* a PMD fault prepares an anon_vma: a VM_HUGEPAGE VMA holding a
		 * whole aligned 2 MiB block gets one, a 1 MiB one does not */
		map(mm, a, 4 * MB, PROT_READ, ANON | MAP_FIXED);
		map(mm, a + 6 * MB, 1 * MB, PROT_READ, ANON | MAP_FIXED);
		call(mm, VMT_SYS_MADVISE, a, 8 * MB, MADV_HUGEPAGE, 0, 0);
		for (uint64_t o = 0; o < 8 * MB; o += 6 * MB) {
			uint64_t len = o ? MB : 4 * MB;
			call(mm, VMT_SYS_MLOCK, a + o, len, 0, 0, 0);
			call(mm, VMT_SYS_MUNLOCK, a + o, len, 0, 0, 0);
			call(mm, VMT_SYS_MPROTECT, a + o, len, RW, 0, 0);
			call(mm, VMT_SYS_MPROTECT, a + o, len, PROT_READ, 0, 0);
		}
		is_str(layout(mm, a), want_thp[i], "%s: mlock of read-only VM_HUGEPAGE VMAs of 4 and 1 MiB", name[i]);
		sim_mm_free(mm);
	}
	is_str(sim_profile_probed(sim_profile_find("6.18")), "", "6.18 has no probed rule");
	/* seen under QEMU on real 6.1.0-57 and 6.12.117: a populated read-only
	 * VMA made PROT_NONE merges with its unfaulted PROT_NONE neighbour */
	static const char *const releases[] = { "6.1", "6.12", "6.18" };
	for (int i = 0; i < 3; i++) {
		struct sim_mm *mm = sim_mm_new(sim_profile_find(releases[i]), NULL, NULL);
		sim_mm_set_mmap_base(mm, BASE);
		map(mm, a, 3 * PG, PROT_READ, ANON | MAP_FIXED | MAP_POPULATE);
		map(mm, a + 3 * PG, 3 * PG, PROT_NONE, ANON | MAP_FIXED);
		call(mm, VMT_SYS_MPROTECT, a, 3 * PG, PROT_NONE, 0, 0);
		is_str(layout(mm, a), "+0-+6 [mr mw me]", "%s: populated r-- made --- merges with its unfaulted --- neighbour",
		       releases[i]);
		sim_mm_free(mm);
	}
}

/* vm.max_map_count: a split that would pass it fails with ENOMEM */
static void test_max_map_count(void)
{
	struct vmt_host h = { 0 };
	struct sim_mm *mm;
	uint64_t a = BASE - 64 * MB;

	h.max_map_count = 3;
	mm = sim_mm_new(sim_profile_find("6.18"), NULL, &h);
	sim_mm_set_mmap_base(mm, BASE);
	map(mm, a, 30 * PG, RW, ANON | MAP_FIXED);
	map(mm, a + 40 * PG, 2 * PG, PROT_READ, ANON | MAP_FIXED);
	is_int(call(mm, VMT_SYS_MPROTECT, a, PG, PROT_READ, 0, 0), 0, "a head split, 2 -> 3 VMAs: allowed");
	is_int(call(mm, VMT_SYS_MPROTECT, a + 20 * PG, PG, PROT_READ, 0, 0), -ENOMEM, "at the limit: ENOMEM");
	is_int(call(mm, VMT_SYS_MUNMAP, a + 25 * PG, PG, 0, 0, 0), -ENOMEM, "munmap that splits: ENOMEM");
	is_int(call(mm, VMT_SYS_MUNMAP, a, PG, 0, 0, 0), 0, "munmap of a head: allowed");
	sim_mm_free(mm);
}

/* D1 (stable 6.1.191, 6.12.114; the host's 6.18.44 lacks it): mremap with
 * MREMAP_DONTUNMAP of an unfaulted page to the page just below it.  With D1
 * the copy stays apart from the kept source (+1 VMA); without, it merges
 * with it (+0), as mseal_test and mremap_dontunmap showed on 6.18.44.  A
 * faulted source is never split by DONTUNMAP (+1); the 6.1 backport tries
 * no merge at all next to the source, so the copy stays apart from an
 * equal neighbour below it too, where 6.12 merges with that one (and 6.18
 * with both). */
static void test_dontunmap_keeps_source_apart(void)
{
	static const struct { const char *v; int unfaulted, faulted_part, below; } cases[] = {
		{ "6.1", 2, 3, 3 }, { "6.12", 2, 3, 2 }, { "6.18", 1, 3, 1 },
	};
	uint64_t a = BASE - 64 * MB;
	const uint64_t keep = MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct sim_mm *mm = mk(cases[i].v);
		map(mm, a + 2 * PG, PG, RW, ANON | MAP_FIXED);
		call(mm, VMT_SYS_MREMAP, a + 2 * PG, PG, PG, keep, a + PG);
		is_int(sim_vma_count(mm), cases[i].unfaulted, "%s: unfaulted page kept by DONTUNMAP, copied just below it: %d VMA(s)",
		       cases[i].v, cases[i].unfaulted);
		if (cases[i].unfaulted == 2)
			ok(has_rule("D1"), "%s: the rule names D1: %s", cases[i].v, res.rule);
		call(mm, VMT_SYS_MUNMAP, a, 16 * PG, 0, 0, 0);

		/* 6 faulted pages, the first 5 moved away: the source is not split */
		map(mm, a + 10 * PG, 6 * PG, RW, ANON | MAP_FIXED);
		touch(mm, a + 10 * PG);
		call(mm, VMT_SYS_MREMAP, a + 10 * PG, 5 * PG, 5 * PG, keep, a + 2 * PG);
		is_int(sim_vma_count(mm), 2, "%s: a faulted VMA partly moved by DONTUNMAP stays whole (2 VMAs)", cases[i].v);
		map(mm, a + 30 * PG, 2 * PG, RW, ANON | MAP_FIXED);
		is_int(sim_vma_count(mm), cases[i].faulted_part, "%s: and a third VMA: %d", cases[i].v, cases[i].faulted_part);
		call(mm, VMT_SYS_MUNMAP, a, 64 * PG, 0, 0, 0);

		/* an equal unfaulted neighbour just below the copy */
		map(mm, a, PG, RW, ANON | MAP_FIXED);
		map(mm, a + 2 * PG, PG, RW, ANON | MAP_FIXED);
		call(mm, VMT_SYS_MREMAP, a + 2 * PG, PG, PG, keep, a + PG);
		is_int(sim_vma_count(mm), cases[i].below, "%s: the copy between an equal neighbour and its source: %d VMA(s)",
		       cases[i].v, cases[i].below);
		sim_mm_free(mm);
	}
}

/* A2 b714ccb02a76 (6.16, undone in 6.18): the old VMA of a DONTUNMAP move
 * loses VM_ACCOUNT */
static void test_dontunmap_account(void)
{
	static const struct { const char *v; int kept; } cases[] = { { "6.12", 1 }, { "6.16", 0 }, { "6.18", 1 } };
	uint64_t a = BASE - 64 * MB;
	for (size_t i = 0; i < 3; i++) {
		struct sim_mm *mm = mk(cases[i].v);
		map(mm, a, 4 * PG, RW, ANON | MAP_FIXED);
		touch(mm, a);
		call(mm, VMT_SYS_MREMAP, a, 4 * PG, 4 * PG, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, a + 16 * PG);
		is_int(!!(flags_at(mm, a) & VM_ACCOUNT), cases[i].kept, "%s: the old VMA %s VM_ACCOUNT", cases[i].v,
		       cases[i].kept ? "keeps" : "loses");
		sim_mm_free(mm);
	}
}

/* cap_mmap_addr: below mmap_min_addr only with CAP_SYS_RAWIO (mseal_test
 * as root maps and moves memory to address 0) */
static void test_mmap_min_addr_and_cap_sys_rawio(void)
{
	for (int cap = 0; cap < 2; cap++) {
		struct sim_mm *mm = mk("6.18");
		sim_mm_set_cap_rawio(mm, cap);
		is_int(map(mm, 0, 4 * PG, PROT_NONE, ANON | MAP_FIXED), cap ? 0 : -EPERM,
		       "MAP_FIXED at 0 %s CAP_SYS_RAWIO: %s", cap ? "with" : "without", cap ? "mapped" : "EPERM");
		if (!cap)
			ok(has_rule("mmap_min_addr"), "the refusal names mmap_min_addr: %s", res.rule);
		uint64_t s = map(mm, 0, 2 * PG, RW, ANON);
		call(mm, VMT_SYS_MUNMAP, 0, 4 * PG, 0, 0, 0);
		is_int(call(mm, VMT_SYS_MREMAP, s, 2 * PG, 2 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, 0),
		       cap ? 0 : -EPERM, "MREMAP_FIXED to 0 %s CAP_SYS_RAWIO", cap ? "with" : "without");
		is_int(map(mm, 0x10000, PG, RW, ANON | MAP_FIXED), 0x10000, "at mmap_min_addr itself: always");
		sim_mm_free(mm);
	}
}

/* X6 9651fcedf7b9 (6.11): MAP_DROPPABLE */
static void test_map_droppable(void)
{
	struct sim_mm *mm = mk("6.12");
	uint64_t a = map(mm, 0, 2 * MB, RW, MAP_ANONYMOUS | 0x08);
	ok(a && (int64_t)a > 0, "6.12: MAP_DROPPABLE maps");
	ok((flags_at(mm, a) & (VM_WIPEONFORK | VM_DONTDUMP | VM_NORESERVE)) == (VM_WIPEONFORK | VM_DONTDUMP | VM_NORESERVE),
	   "6.12: wipe-on-fork, no dump, no reserve");
	is_int(map(mm, 0, PG, RW, MAP_ANONYMOUS | 0x08 | MAP_LOCKED), -EINVAL, "6.12: not with MAP_LOCKED");
	sim_mm_free(mm);
	mm = mk("6.1");
	is_int(map(mm, 0, PG, RW, MAP_ANONYMOUS | 0x08), -EINVAL, "6.1: no MAP_DROPPABLE");
	ok(res.rule != NULL, "6.1: the refusal says why: %s", res.rule);
	sim_mm_free(mm);
}

/* madvise_populate: EINVAL where the protection does not allow the fault
 * (madv_populate: POPULATE_WRITE of PROT_READ, POPULATE_READ of PROT_WRITE) */
static void test_populate_needs_the_protection(void)
{
	struct sim_mm *mm = mk("6.12");
	uint64_t r = map(mm, 0, 4 * PG, PROT_READ, ANON), w = map(mm, 0, 4 * PG, PROT_WRITE, ANON);
	is_int(call(mm, VMT_SYS_MADVISE, r, 4 * PG, MADV_POPULATE_READ, 0, 0), 0, "POPULATE_READ of PROT_READ");
	is_int(call(mm, VMT_SYS_MADVISE, r, 4 * PG, MADV_POPULATE_WRITE, 0, 0), -EINVAL, "POPULATE_WRITE of PROT_READ: EINVAL");
	is_int(call(mm, VMT_SYS_MADVISE, w, 4 * PG, MADV_POPULATE_READ, 0, 0), -EINVAL, "POPULATE_READ of PROT_WRITE: EINVAL");
	is_int(call(mm, VMT_SYS_MADVISE, w, 4 * PG, MADV_POPULATE_WRITE, 0, 0), 0, "POPULATE_WRITE of PROT_WRITE");
	sim_mm_free(mm);
}

/* Every refusal names the rule that made it (41 of mseal_test's 61 failed
 * events had none, the 6.1 profile's ENOSYS for mseal among them). */
static void test_every_failure_has_rule_text(void)
{
	struct sim_mm *mm = mk("6.18"), *old = mk("6.1");
	uint64_t a = BASE - 64 * MB;
	static const struct { int sys; uint64_t a[5]; const char *what; } calls[] = {
		{ VMT_SYS_MMAP, { 0, 0, 3, ANON, 0 }, "mmap of length 0" },
		{ VMT_SYS_MMAP, { 0, PG, 3, MAP_ANONYMOUS, 0 }, "mmap without a type" },
		{ VMT_SYS_MMAP, { 0, PG, 3, MAP_PRIVATE, 0 }, "mmap without a file" },
		{ VMT_SYS_MMAP, { 0x1001, PG, 3, ANON | MAP_FIXED, 0 }, "MAP_FIXED unaligned" },
		{ VMT_SYS_MUNMAP, { 1, PG, 0, 0, 0 }, "munmap unaligned" },
		{ VMT_SYS_MPROTECT, { 1, PG, 1, 0, 0 }, "mprotect unaligned" },
		{ VMT_SYS_MPROTECT, { 0x7e0000000000ull, PG, 1, 0, 0 }, "mprotect of a hole" },
		{ VMT_SYS_MADVISE, { 0x7e0000000000ull, PG, MADV_DONTNEED, 0, 0 }, "madvise of a hole" },
		{ VMT_SYS_MADVISE, { 0, PG, 12345, 0, 0 }, "unknown advice" },
		{ VMT_SYS_MREMAP, { 0x7e0000000000ull, PG, PG, 0, 0 }, "mremap of nothing" },
		{ VMT_SYS_MREMAP, { 0, PG, PG, 0x100, 0 }, "mremap with unknown flags" },
		{ VMT_SYS_MLOCK, { 0x7e0000000000ull, PG, 0, 0, 0 }, "mlock of a hole" },
		{ VMT_SYS_MLOCK2, { 0, PG, 8, 0, 0 }, "mlock2 unknown flags" },
		{ VMT_SYS_MLOCKALL, { 0, 0, 0, 0, 0 }, "mlockall without flags" },
		{ VMT_SYS_MSEAL, { 0x7e0000000000ull, PG, 0, 0, 0 }, "mseal of a hole" },
		{ VMT_SYS_MSEAL, { 0, PG, 1, 0, 0 }, "mseal with flags" },
		{ VMT_SYS_PKEY_MPROTECT, { BASE - 64 * MB, PG, 1, 5, 0 }, "pkey_mprotect with a key" },
	};
	map(mm, a, 4 * PG, RW, ANON | MAP_FIXED);
	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		const uint64_t *x = calls[i].a;
		int64_t r = call(mm, calls[i].sys, x[0], x[1], x[2], x[3], x[4]);
		ok(r < 0 && res.rule && *res.rule, "%s fails (%lld) with rule text: %s", calls[i].what, (long long)r,
		   res.rule ? res.rule : "(none)");
	}
	call(mm, VMT_SYS_MSEAL, a, PG, 0, 0, 0);
	call(mm, VMT_SYS_MUNMAP, a, PG, 0, 0, 0);
	ok(res.err == EPERM && has_rule("X1"), "munmap of a sealed VMA names X1: %s", res.rule);
	call(old, VMT_SYS_MSEAL, a, PG, 0, 0, 0);
	ok(res.err == ENOSYS && has_rule("X1"), "6.1: mseal is ENOSYS and names X1: %s", res.rule);
	sim_mm_free(mm);
	sim_mm_free(old);
}

/* M1 cacded5e42b9 (6.12): a new mapping between a faulted prev and a
 * faulted next of different anon_vmas.  6.1-6.11 mmap_region tried next
 * first and took prev only if it could join next's anon_vma: it merges
 * with next.  vma_merge_new_range tries prev first.  Seen on real 6.1.192
 * under QEMU (mremap_dontunmap of 6.1's selftests, and a two-mapping
 * reduction of it); 6.12.117 and this 6.18 merge with prev. */
static void test_new_mapping_between_two_anon_vmas(void)
{
	static const struct { const char *v; int want; } cases[] = {
		{ "6.1", VR_EXPAND_NEXT }, { "6.8", VR_EXPAND_NEXT }, { "6.12", VR_EXPAND_PREV }, { "6.18", VR_EXPAND_PREV },
	};
	uint64_t a = BASE - 64 * MB;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct sim_mm *mm = mk(cases[i].v);
		map(mm, a, 4 * PG, RW, ANON | MAP_FIXED);
		touch(mm, a);
		map(mm, a + 8 * PG, 4 * PG, RW, ANON | MAP_FIXED);
		touch(mm, a + 8 * PG);
		map(mm, a + 4 * PG, 4 * PG, RW, ANON | MAP_FIXED);
		is_str(vr_outcome_name(res.outcome), vr_outcome_name(cases[i].want), "%s: between two faulted VMAs: %s",
		       cases[i].v, vr_outcome_name(cases[i].want));
		sim_mm_free(mm);
	}
}

static void test_profiles(void)
{
	char names[256] = "";
	size_t l = 0;
	char cite[64];

	/* the names, the lookup and the order all come from the one array */
	ok(sim_profile_count() >= 7, "%zu release profiles", sim_profile_count());
	for (size_t i = 0; i < sim_profile_count(); i++) {
		const struct sim_profile *p = sim_profile_at(i);
		l += (size_t)snprintf(names + l, sizeof names - l, "%s,", p->name);
		ok(sim_profile_find(p->name) == p, "%s found by name", p->name);
		if (i)
			ok(sim_profile_at(i - 1)->kv < p->kv, "%s after %s", p->name, sim_profile_at(i - 1)->name);
	}
	snprintf(names + l, sizeof names - l, "host");
	is_str(sim_profile_names(), names, "profile names list the array, then host");
	ok(sim_profile_at(sim_profile_count()) == NULL, "nothing past the last profile");
	is_str(sim_profile_name(sim_profile_find("6.1")), "6.1", "6.1 is a profile");
	ok(sim_profile_find("6.1")->kv == SIM_KV(6, 1, 192), "6.1 stands for 6.1.192");
	/* the tag comes from the table, and a release keeps its sublevel */
	is_str(sim_rule_cite(R_T4_STACK_NOHUGE, cite, sizeof cite), "6.8 c4608d1bf7c6 T4", "cite T4");
	is_str(sim_rule_cite(R_Z1_RO_POPULATE, cite, sizeof cite), "2.6.32 a13ea5b75964 Z1; host probes it",
	       "Z1 from 2.6.32, probed by host");
	for (int r = 0; r < R_COUNT; r++) {
		ok(sim_rules[r].tag && strlen(sim_rules[r].tag) == 2 && sim_rules[r].what && sim_rules[r].commit &&
		   sim_rules[r].from, "rule %d (%s) is a whole row", r, sim_rules[r].tag ? sim_rules[r].tag : "?");
		for (int q = 0; q < r; q++)
			if (!strcmp(sim_rules[q].tag, sim_rules[r].tag))
				ok(0, "tag %s twice", sim_rules[r].tag);
	}
	ok(sim_profile_find("6.5") == NULL, "no profile 6.5");
	ok(sim_profile_find(NULL) == NULL, "NULL version");
	ok(sim_profile_find("host") != NULL, "host has a profile");
	is_str(sim_profile_name(sim_profile_find("6.13")), "6.13", "6.13 by name");
	ok(sim_mm_new(NULL, NULL, NULL) == NULL, "no address space without a profile");
}

/* X5 d23cb648e365 (6.17): a length-keeping MREMAP_FIXED move spans VMAs
 * (mremap_test's multi-VMA moves); before it, EFAULT */
static void test_mremap_moves_several_vmas(void)
{
	static const struct { const char *v; int multi; } cases[] = { { "6.16", 0 }, { "6.18", 1 } };
	uint64_t a = BASE - 64 * MB, d = BASE - 32 * MB;
	const uint64_t fx = MREMAP_MAYMOVE | MREMAP_FIXED;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct sim_mm *mm = mk(cases[i].v);
		struct sim_vma_view v;
		int64_t r;

		/* A rw 4 pages, a 2-page gap, B r 2 pages, C rw 3 pages, then a gap */
		map(mm, a, 4 * PG, RW, ANON | MAP_FIXED);
		map(mm, a + 6 * PG, 2 * PG, PROT_READ, ANON | MAP_FIXED);
		map(mm, a + 8 * PG, 3 * PG, RW, ANON | MAP_FIXED);
		touch(mm, a + 8 * PG);
		r = call(mm, VMT_SYS_MREMAP, a + PG, 12 * PG, 12 * PG, fx, d);
		if (!cases[i].multi) {
			is_int(r, -EFAULT, "%s: a move spanning three VMAs is EFAULT", cases[i].v);
			is_int(sim_vma_count(mm), 3, "%s: and changes nothing", cases[i].v);
			sim_mm_free(mm);
			continue;
		}
		is_int(r, (int64_t)d, "%s: a move spanning three VMAs and a gap after them succeeds", cases[i].v);
		ok(has_rule("X5"), "%s: the rule names X5: %s", cases[i].v, res.rule);
		is_int(sim_vma_count(mm), 4, "%s: A's first page stays, A B C moved", cases[i].v);
		ok(!sim_vma_at(mm, 1, &v) && v.start == d && v.end == d + 3 * PG, "%s: A's rest at the destination", cases[i].v);
		ok(!sim_vma_at(mm, 2, &v) && v.start == d + 5 * PG && v.end == d + 7 * PG, "%s: B after the same gap", cases[i].v);
		ok(!sim_vma_at(mm, 3, &v) && v.start == d + 7 * PG && v.end == d + 10 * PG, "%s: C next to B", cases[i].v);
		/* a gap at the start of the range */
		r = call(mm, VMT_SYS_MREMAP, d - 2 * PG, 4 * PG, 4 * PG, fx, a + 16 * PG);
		is_int(r, -EFAULT, "%s: a gap before the first VMA is EFAULT", cases[i].v);
		/* a sealed VMA after the first: the parts before it moved */
		call(mm, VMT_SYS_MSEAL, d + 7 * PG, 3 * PG, 0, 0, 0);
		r = call(mm, VMT_SYS_MREMAP, d, 10 * PG, 10 * PG, fx, a + 32 * PG);
		is_int(r, -EPERM, "%s: a sealed third VMA is EPERM", cases[i].v);
		is_int((int64_t)flags_at(mm, a + 32 * PG) != 0 && flags_at(mm, a + 37 * PG) != 0, 1,
		       "%s: after the first two moved", cases[i].v);
		sim_mm_free(mm);
	}
}

/* X3 662df3e5c376 (6.13): guard markers are page-table entries: populate
 * stops at one with EFAULT (guard-regions' populate); they survive
 * MADV_DONTNEED, move with mremap, go with munmap and MADV_GUARD_REMOVE */
static void test_populate_stops_at_guard_markers(void)
{
	struct sim_mm *mm = mk("6.18");
	uint64_t a = BASE - 64 * MB, d = BASE - 32 * MB;
	const int gi = 102, gr = 103;   /* MADV_GUARD_INSTALL, _REMOVE */

	map(mm, a, 10 * PG, RW, ANON | MAP_FIXED);
	is_int(call(mm, VMT_SYS_MADVISE, a + 4 * PG, 2 * PG, gi, 0, 0), 0, "guard pages 4 and 5");
	is_int(call(mm, VMT_SYS_MADVISE, a, 4 * PG, MADV_POPULATE_WRITE, 0, 0), 0, "populating before them works");
	is_int(call(mm, VMT_SYS_MADVISE, a, 10 * PG, MADV_POPULATE_READ, 0, 0), -EFAULT, "POPULATE_READ over them: EFAULT");
	ok(has_rule("X3"), "the rule names X3: %s", res.rule);
	is_int(call(mm, VMT_SYS_MADVISE, a, 10 * PG, MADV_POPULATE_WRITE, 0, 0), -EFAULT, "POPULATE_WRITE over them: EFAULT");
	call(mm, VMT_SYS_MADVISE, a, 10 * PG, MADV_DONTNEED, 0, 0);
	is_int(call(mm, VMT_SYS_MADVISE, a + 4 * PG, PG, MADV_POPULATE_WRITE, 0, 0), -EFAULT, "MADV_DONTNEED keeps them");
	call(mm, VMT_SYS_MREMAP, a, 10 * PG, 10 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, d);
	is_int(call(mm, VMT_SYS_MADVISE, d + 5 * PG, PG, MADV_POPULATE_WRITE, 0, 0), -EFAULT, "mremap moves them");
	is_int(call(mm, VMT_SYS_MADVISE, d + 4 * PG, 2 * PG, gr, 0, 0), 0, "MADV_GUARD_REMOVE");
	is_int(call(mm, VMT_SYS_MADVISE, d, 10 * PG, MADV_POPULATE_WRITE, 0, 0), 0, "then populating works");
	call(mm, VMT_SYS_MADVISE, d + PG, PG, gi, 0, 0);
	call(mm, VMT_SYS_MUNMAP, d, 10 * PG, 0, 0, 0);
	map(mm, d, 10 * PG, RW, ANON | MAP_FIXED);
	is_int(call(mm, VMT_SYS_MADVISE, d, 10 * PG, MADV_POPULATE_WRITE, 0, 0), 0, "munmap takes them");
	sim_mm_free(mm);
}

/* madvise_collapse: EINVAL on VM_NOHUGEPAGE, where a 2 MiB block has no
 * page, and (X3) where one holds a guard marker (guard-regions' collapse) */
static void test_collapse(void)
{
	struct sim_mm *mm = mk("6.18");
	uint64_t a = BASE - 64 * MB;

	map(mm, a, 2 * MB, RW, ANON | MAP_FIXED);
	call(mm, VMT_SYS_MADVISE, a, 2 * MB, MADV_HUGEPAGE, 0, 0);
	is_int(call(mm, VMT_SYS_MADVISE, a, 2 * MB, 25, 0, 0), -EINVAL, "MADV_COLLAPSE of a block without pages: EINVAL");
	touch(mm, a + 16 * PG);
	is_int(call(mm, VMT_SYS_MADVISE, a, 2 * MB, 25, 0, 0), 0, "MADV_COLLAPSE of a VM_HUGEPAGE block with a page");
	call(mm, VMT_SYS_MADVISE, a + 8 * PG, PG, 102, 0, 0);
	is_int(call(mm, VMT_SYS_MADVISE, a, 2 * MB, 25, 0, 0), -EINVAL, "a guard marker in the block: EINVAL");
	ok(has_rule("X3"), "the rule names X3: %s", res.rule);
	call(mm, VMT_SYS_MADVISE, a + 8 * PG, PG, 103, 0, 0);
	is_int(call(mm, VMT_SYS_MADVISE, a, 2 * MB, 25, 0, 0), 0, "the marker removed: collapses");
	call(mm, VMT_SYS_MADVISE, a, 2 * MB, MADV_NOHUGEPAGE, 0, 0);
	is_int(call(mm, VMT_SYS_MADVISE, a, 2 * MB, 25, 0, 0), -EINVAL, "VM_NOHUGEPAGE: EINVAL");
	sim_mm_free(mm);
}

/* M5 61f67c230a5e (6.19, in 6.18.44): merge.c's merge_with_fork
 * mremap_faulted_to_unfaulted_prev: a faulted VMA, fork, in the child moved
 * away, an unfaulted one mapped where it was, then moved back beside it
 * with MREMAP_DONTUNMAP: 6.16 merges (6 pages), 6.18.44 not (3) */
static void test_copied_fork_child_stays_apart(void)
{
	static const struct { const char *v; int merged; } cases[] = { { "6.16", 1 }, { "6.18", 0 } };
	uint64_t c = BASE - 64 * MB;
	const uint64_t fx = MREMAP_MAYMOVE | MREMAP_FIXED;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct sim_mm *mm = mk(cases[i].v), *child;
		struct sim_vma_view v;
		size_t k;

		map(mm, c + 4 * PG, 3 * PG, RW, ANON | MAP_FIXED);
		touch(mm, c + 4 * PG);
		child = sim_mm_fork(mm);
		call(child, VMT_SYS_MREMAP, c + 4 * PG, 3 * PG, 3 * PG, fx, c + 20 * PG);
		map(child, c + PG, 3 * PG, RW, ANON | MAP_FIXED);
		call(child, VMT_SYS_MREMAP, c + 20 * PG, 3 * PG, 3 * PG, fx | MREMAP_DONTUNMAP, c + 4 * PG);
		for (k = 0; !sim_vma_at(child, k, &v) && v.start != c + PG; k++)
			;
		is_int(v.end == c + 7 * PG, cases[i].merged, "%s: the copy of a forked faulted VMA %s the unfaulted one before it",
		       cases[i].v, cases[i].merged ? "merges with" : "stays apart from");
		if (!cases[i].merged)
			ok(has_rule("M5"), "%s: the rule names M5: %s", cases[i].v, res.rule);
		sim_mm_free(child);
		sim_mm_free(mm);
	}
}

static int64_t call_ranges(struct sim_mm *mm, int sys, const uint64_t *a, const struct vmt_ranges *r)
{
	struct vmt_event ev = { 0 };
	ev.sys = (uint16_t)sys;
	memcpy(ev.args, a, sizeof ev.args);
	sim_apply_ranges(mm, &ev, NULL, r, &res);
	return res.err ? -res.err : res.ret;
}

/* P1 (mbind) and N1 9a10064f5625 (PR_SET_VMA_ANON_NAME): a policy or a
 * name keeps a range apart from its neighbours; taking it away merges */
static void test_policy_and_name_keep_apart(void)
{
	struct sim_mm *mm = mk("6.18");
	uint64_t a = BASE - 64 * MB;
	struct vmt_ranges nm = { .name = "x" };

	map(mm, a, 16 * PG, RW, ANON | MAP_FIXED);
	is_int(call(mm, VMT_SYS_MBIND, a + 4 * PG, 4 * PG, 2 /* MPOL_BIND */, 0, 0), 0, "mbind of a middle range");
	is_int(sim_vma_count(mm), 3, "mbind splits the VMA in three");
	ok(has_rule("P1"), "the rule names P1: %s", res.rule);
	call(mm, VMT_SYS_MBIND, a + 4 * PG, 4 * PG, 0 /* MPOL_DEFAULT */, 0, 0);
	is_int(sim_vma_count(mm), 1, "MPOL_DEFAULT merges it back");
	is_int(call_ranges(mm, VMT_SYS_PRCTL_SET_VMA, (uint64_t[6]){ 0x53564d41, 0, a + 8 * PG, 2 * PG, 1 }, &nm), 0,
	       "PR_SET_VMA_ANON_NAME of a middle range");
	is_int(sim_vma_count(mm), 3, "the name splits the VMA in three");
	ok(has_rule("N1"), "the rule names N1: %s", res.rule);
	nm.name = NULL;
	call_ranges(mm, VMT_SYS_PRCTL_SET_VMA, (uint64_t[6]){ 0x53564d41, 0, a + 8 * PG, 2 * PG, 0 }, &nm);
	is_int(sim_vma_count(mm), 1, "removing the name merges it back");
	sim_mm_free(mm);
}

/* R1 021781b01275 (6.13): process_madvise of the caller's own pidfd
 * takes every advice, of another process's (format 6's target) only
 * MADV_COLD, PAGEOUT, WILLNEED and COLLAPSE; before 6.13 the caller's own
 * is held to those four too */
static int64_t pmadvise(struct sim_mm *mm, int32_t caller, int32_t target, uint64_t advice, struct vmt_range *v)
{
	struct vmt_ranges r = { .kind = VMT_RANGES_IOVEC, .n = 1, .ranges = v, .target = target };
	struct vmt_event ev = { .sys = VMT_SYS_PROCESS_MADVISE, .pid = caller, .args = { 3, 0, 1, advice, 0 } };
	sim_apply_ranges(mm, &ev, NULL, &r, &res);
	return res.err ? -res.err : res.ret;
}

static void test_process_madvise_of_another_process(void)
{
	struct sim_mm *mm = mk("6.18"), *old = mk("6.12");
	uint64_t a = BASE - 64 * MB;
	struct vmt_range v = { a, 4 * PG };

	map(mm, a, 16 * PG, RW, ANON | MAP_FIXED);
	map(old, a, 16 * PG, RW, ANON | MAP_FIXED);
	is_int(pmadvise(mm, 10, 11, MADV_COLD, &v), 4 * PG, "6.18: MADV_COLD of another process: the bytes advised");
	ok(has_rule("R1"), "the rule names R1: %s", res.rule);
	is_int(pmadvise(mm, 10, 11, MADV_DONTNEED, &v), -EINVAL, "6.18: MADV_DONTNEED of another process: EINVAL");
	ok(has_rule("R1"), "the refusal names R1: %s", res.rule);
	is_int(pmadvise(mm, 10, 10, MADV_DONTNEED, &v), 4 * PG, "6.18: MADV_DONTNEED of the caller's own pidfd");
	is_int(pmadvise(mm, 10, 0, MADV_DONTNEED, &v), 4 * PG, "6.18: a pidfd not named (format 5): the caller's");
	is_int(pmadvise(old, 10, 10, MADV_DONTNEED, &v), -EINVAL, "6.12: MADV_DONTNEED of the caller's own: EINVAL");
	ok(has_rule("R1"), "the refusal names R1: %s", res.rule);
	is_int(pmadvise(old, 10, 11, MADV_PAGEOUT, &v), 4 * PG, "6.12: MADV_PAGEOUT of another process");
	sim_mm_free(mm);
	sim_mm_free(old);
}

/* P1 with format 5's nodemask: neighbours bound to other nodes stay
 * apart, to the same nodes merge (a longer mask of them too); of
 * MPOL_PREFERRED only the first node counts (mpol_new_preferred) */
static void test_policy_nodes(void)
{
	struct sim_mm *mm = mk("6.18");
	uint64_t a = BASE - 64 * MB;
	struct vmt_ranges n0 = { .kind = VMT_RANGES_NODEMASK, .nwords = 1, .nodes = { 1 } };
	struct vmt_ranges n0l = { .kind = VMT_RANGES_NODEMASK, .nwords = 2, .nodes = { 1, 0 } };
	struct vmt_ranges n1 = { .kind = VMT_RANGES_NODEMASK, .nwords = 1, .nodes = { 2 } };
	struct vmt_ranges n01 = { .kind = VMT_RANGES_NODEMASK, .nwords = 1, .nodes = { 3 } };

	map(mm, a, 16 * PG, RW, ANON | MAP_FIXED);
	call_ranges(mm, VMT_SYS_MBIND, (uint64_t[6]){ a + 4 * PG, 2 * PG, 2 /* MPOL_BIND */, 1, 65 }, &n0);
	call_ranges(mm, VMT_SYS_MBIND, (uint64_t[6]){ a + 6 * PG, 2 * PG, 2, 1, 65 }, &n1);
	is_int(sim_vma_count(mm), 4, "MPOL_BIND to node 0 and to node 1 on neighbouring ranges: apart");
	call_ranges(mm, VMT_SYS_MBIND, (uint64_t[6]){ a + 6 * PG, 2 * PG, 2, 1, 129 }, &n0l);
	is_int(sim_vma_count(mm), 3, "both to node 0 (a longer mask): merged");
	call_ranges(mm, VMT_SYS_MBIND, (uint64_t[6]){ a + 8 * PG, 2 * PG, 1 /* MPOL_PREFERRED */, 1, 3 }, &n01);
	call_ranges(mm, VMT_SYS_MBIND, (uint64_t[6]){ a + 10 * PG, 2 * PG, 1, 1, 3 }, &n0);
	is_int(sim_vma_count(mm), 4, "MPOL_PREFERRED of nodes 0-1 and of node 0: one policy, merged");
	sim_mm_free(mm);
}

/* U1: UFFDIO_REGISTER sets VM_UFFD_MISSING on the registered range only
 * (uffd-unit-tests' registrations), UNREGISTER clears it and merges */
static void test_uffd_register_splits(void)
{
	struct sim_mm *mm = mk("6.18");
	uint64_t a = BASE - 64 * MB;
	struct vmt_range rg = { a + 4 * PG, 4 * PG };
	struct vmt_ranges r = { .n = 1, .ranges = &rg, .mode = 1 };

	map(mm, a, 16 * PG, RW, ANON | MAP_FIXED);
	is_int(call_ranges(mm, VMT_SYS_UFFDIO_REGISTER, (uint64_t[6]){ 3, 0xc020aa00 }, &r), 0, "UFFDIO_REGISTER");
	is_int(sim_vma_count(mm), 3, "registering a middle range splits the VMA in three");
	ok(!!(flags_at(mm, a + 5 * PG) & VM_UFFD_MISSING), "the range has VM_UFFD_MISSING");
	ok(has_rule("U1"), "the rule names U1: %s", res.rule);
	is_int(call_ranges(mm, VMT_SYS_UFFDIO_UNREGISTER, (uint64_t[6]){ 3, 0x8010aa01 }, &r), 0, "UFFDIO_UNREGISTER");
	is_int(sim_vma_count(mm), 1, "unregistering merges it back");
	sim_mm_free(mm);
}

/* X5's vma_multi_allowed(): a userfaultfd-armed VMA moves only alone
 * (mremap_test's mremap_move_multi_invalid_vmas, 7.2): first of several,
 * EFAULT before anything moved; after the first, EFAULT with the first
 * moved; alone, it moves */
static void test_mremap_multi_uffd_armed(void)
{
	struct sim_mm *mm = mk("6.18");
	uint64_t a = BASE - 64 * MB, d = BASE - 32 * MB;
	const uint64_t fx = MREMAP_MAYMOVE | MREMAP_FIXED;
	struct vmt_range rg;
	struct vmt_ranges r = { .n = 1, .ranges = &rg, .mode = 1 };
	int64_t ret;

	/* five one-page VMAs a page apart, each registered (MISSING) */
	for (int i = 0; i < 5; i++) {
		map(mm, a + 2 * i * PG, PG, RW, ANON | MAP_FIXED);
		rg = (struct vmt_range){ a + 2 * i * PG, PG };
		call_ranges(mm, VMT_SYS_UFFDIO_REGISTER, (uint64_t[6]){ 3, 0xc020aa00 }, &r);
	}
	is_int(sim_vma_count(mm), 5, "five registered VMAs");
	ret = call(mm, VMT_SYS_MREMAP, a, 10 * PG, 10 * PG, fx, d);
	is_int(ret, -EFAULT, "a move of all five: EFAULT");
	ok(has_rule("X5"), "the rule names X5: %s", res.rule);
	ok(flags_at(mm, a) != 0 && flags_at(mm, d) == 0, "nothing moved");
	ret = call(mm, VMT_SYS_MREMAP, a, 2 * PG, 2 * PG, fx, d);
	is_int(ret, -EFAULT, "the first and the gap after it: EFAULT too (the range goes on past it)");
	ret = call(mm, VMT_SYS_MREMAP, a, PG, PG, fx, d);
	is_int(ret, (int64_t)d, "the first alone moves");
	call(mm, VMT_SYS_MUNMAP, d, PG, 0, 0, 0);
	/* an unregistered first VMA, the registered ones after it */
	map(mm, a, PG, RW, ANON | MAP_FIXED);
	ret = call(mm, VMT_SYS_MREMAP, a, 10 * PG, 10 * PG, fx, d);
	is_int(ret, -EFAULT, "an unregistered first VMA, a registered second: EFAULT");
	ok(flags_at(mm, a) == 0 && flags_at(mm, d) != 0, "after the first moved");
	is_int(sim_vma_count(mm), 5, "five VMAs still");
	sim_mm_free(mm);
}

/* H1 (PR_SET_THP_DISABLE), W1 b507808ebce2 (PR_SET_MDWE): later calls
 * answer otherwise (prctl_thp_disable, mdwe_test) */
static void test_prctl_changes_later_calls(void)
{
	struct sim_mm *mm = mk("6.18"), *old = mk("6.1");
	uint64_t a = BASE - 64 * MB;

	map(mm, a, 2 * MB, RW, ANON | MAP_FIXED);
	touch(mm, a);
	is_int(call(mm, VMT_SYS_MADVISE, a, 2 * MB, 25, 0, 0), 0, "MADV_COLLAPSE of a block with a page");
	call(mm, VMT_SYS_PRCTL_SET_THP_DISABLE, 41, 1, 0, 0, 0);
	is_int(call(mm, VMT_SYS_MADVISE, a, 2 * MB, 25, 0, 0), -EINVAL, "after PR_SET_THP_DISABLE: EINVAL");
	ok(has_rule("H1"), "the rule names H1: %s", res.rule);
	ok(map(mm, 0, PG, RW | PROT_EXEC, ANON) < (uint64_t)-4096, "without MDWE a writable executable mapping is fine");
	is_int(call(mm, VMT_SYS_PRCTL_SET_MDWE, 65, 1, 0, 0, 0), 0, "PR_SET_MDWE");
	is_int((int64_t)map(mm, 0, PG, RW | PROT_EXEC, ANON), -EACCES, "then mmap(PROT_WRITE|PROT_EXEC): EACCES");
	ok(has_rule("W1"), "the rule names W1: %s", res.rule);
	is_int(call(mm, VMT_SYS_MPROTECT, a, PG, PROT_READ | PROT_EXEC, 0, 0), -EACCES, "mprotect gaining exec: EACCES");
	is_int(call(mm, VMT_SYS_PRCTL_SET_MDWE, 65, 0, 0, 0, 0), -EPERM, "MDWE cannot be cleared: EPERM");
	is_int(call(old, VMT_SYS_PRCTL_SET_MDWE, 65, 1, 0, 0, 0), -EINVAL, "6.1: PR_SET_MDWE is EINVAL");
	sim_mm_free(mm);
	sim_mm_free(old);
}

/* K1 d7597f59d1d3 (PR_SET_MEMORY_MERGE): VM_MERGEABLE on every private
 * VMA in place and on later ones, so a later neighbour merges */
static void test_memory_merge_marks_every_vma(void)
{
	struct sim_mm *mm = mk("6.18");
	uint64_t a = BASE - 64 * MB;

	map(mm, a, 4 * PG, RW, ANON | MAP_FIXED);
	map(mm, a + 8 * PG, 4 * PG, RW, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED);
	is_int(call(mm, VMT_SYS_PRCTL_SET_MEMORY_MERGE, 67, 1, 0, 0, 0), 0, "PR_SET_MEMORY_MERGE");
	ok(has_rule("K1"), "the rule names K1: %s", res.rule);
	ok(!!(flags_at(mm, a) & VM_MERGEABLE), "a private VMA gets VM_MERGEABLE");
	ok(!(flags_at(mm, a + 8 * PG) & VM_MERGEABLE), "a shared one does not");
	map(mm, a + 4 * PG, 2 * PG, RW, ANON | MAP_FIXED);
	ok(!!(flags_at(mm, a + 4 * PG) & VM_MERGEABLE), "a later mapping gets it too");
	is_int(sim_vma_count(mm), 2, "and merges with its VM_MERGEABLE neighbour");
	call(mm, VMT_SYS_PRCTL_SET_MEMORY_MERGE, 67, 0, 0, 0, 0);
	ok(!(flags_at(mm, a) & VM_MERGEABLE), "turned off: cleared from every VMA");
	sim_mm_free(mm);
}

/* S1 c35559f94ebc (6.6): map_shadow_stack maps a VM_SHADOW_STACK VMA
 * that stays apart from equal anonymous neighbours; ENOSYS before */
static void test_map_shadow_stack(void)
{
	struct sim_mm *mm = mk("6.18"), *old = mk("6.1");
	uint64_t a = BASE - 64 * MB;

	map(mm, a, 4 * PG, PROT_READ, ANON | MAP_FIXED);
	is_int(call(mm, VMT_SYS_MAP_SHADOW_STACK, a + 4 * PG, 4 * PG, 1, 0, 0), (int64_t)(a + 4 * PG),
	       "map_shadow_stack at a free address");
	ok(!!(flags_at(mm, a + 4 * PG) & VM_SHADOW_STACK), "the VMA has VM_SHADOW_STACK");
	is_int(sim_vma_count(mm), 2, "apart from the read-only neighbour");
	ok(has_rule("S1"), "the rule names S1: %s", res.rule);
	is_int(call(old, VMT_SYS_MAP_SHADOW_STACK, 0, 4 * PG, 1, 0, 0), -ENOSYS, "6.1: ENOSYS");
	sim_mm_free(mm);
	sim_mm_free(old);
}

int main(void)
{
	test_thp_alignment_of_anonymous_maps();
	test_thp_alignment_keeps_top_down_order();
	test_thp_alignment_not_with_hint();
	test_free_hint_is_used();
	test_thread_stack_8m_plus_4k();
	test_stack_next_to_plain_anonymous();
	test_brk_in_fork_child();
	test_mremap_unfaulted_moves_merge();
	test_unfaulted_target_faulted_source();
	test_mprotect_middle_and_back();
	test_calls_that_a_release_lacks();
	test_max_map_count();
	test_read_only_populate_zero_page();
	test_dontunmap_keeps_source_apart();
	test_dontunmap_account();
	test_mremap_moves_several_vmas();
	test_copied_fork_child_stays_apart();
	test_mmap_min_addr_and_cap_sys_rawio();
	test_map_droppable();
	test_populate_needs_the_protection();
	test_populate_stops_at_guard_markers();
	test_collapse();
	test_every_failure_has_rule_text();
	test_new_mapping_between_two_anon_vmas();
	test_policy_and_name_keep_apart();
	test_policy_nodes();
	test_process_madvise_of_another_process();
	test_uffd_register_splits();
	test_mremap_multi_uffd_armed();
	test_prctl_changes_later_calls();
	test_memory_merge_marks_every_vma();
	test_map_shadow_stack();
	test_profiles();
	return done_testing();
}
