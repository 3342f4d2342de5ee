/* sim_int.h - the simulator's internals, shared by the files of replay/sim/.
 * Only sim.h is the public contract. */
#ifndef VMREC_SIM_INT_H
#define VMREC_SIM_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include "replay/sim/sim.h"
#include "replay/sim/vm_flags.h"

#define SIM_PAGE        ((unsigned long long)VMT_PAGE)
#define SIM_PMD         (2ull << 20)
#define SIM_TASK_SIZE   0x7ffffffff000ull  /* x86-64, 4-level paging */
#define SIM_GUARD_GAP   (256 * SIM_PAGE)   /* stack_guard_gap default */
#define PAGE_ALIGN(x)   (((x) + SIM_PAGE - 1) & ~(SIM_PAGE - 1))

/* calc_vm_prot_bits: PROT_* to the VM_* access bits */
static inline uint64_t sim_prot_flags(uint64_t prot)
{
	return (prot & PROT_READ ? VM_READ : 0) | (prot & PROT_WRITE ? VM_WRITE : 0) |
	       (prot & PROT_EXEC ? VM_EXEC : 0);
}

/* ---- profiles (profiles.c) ---- */
/* A release as one comparable number: 6.12.117 = SIM_KV(6, 12, 117), and
 * a release candidate before its release: SIM_KV_RC(6, 12, 1) < SIM_KV_RC(6,
 * 12, 6) < SIM_KV(6, 12, 0).  A line (major.minor) is kv / SIM_KV_LINE; in
 * it, 1..999 are the -rcN and SIM_KV_REL + sublevel the releases. */
#define SIM_KV_LINE 10000
#define SIM_KV_REL  1000
#define SIM_KV(major, minor, sub) (((major) * 1000 + (minor)) * SIM_KV_LINE + SIM_KV_REL + (sub))
#define SIM_KV_RC(major, minor, rc) (((major) * 1000 + (minor)) * SIM_KV_LINE + (rc))
#define SIM_KV_MAJOR(kv) ((kv) / SIM_KV_LINE / 1000)
#define SIM_KV_MINOR(kv) ((kv) / SIM_KV_LINE % 1000)
#define SIM_KV_IS_RC(kv) ((kv) % SIM_KV_LINE < SIM_KV_REL)
#define SIM_KV_SUB(kv)   (SIM_KV_IS_RC(kv) ? 0 : (kv) % SIM_KV_LINE - SIM_KV_REL)
#define SIM_KV_RCN(kv)   (SIM_KV_IS_RC(kv) ? (kv) % SIM_KV_LINE : 0)

enum sim_rule_id {
#define SIM_RULE(tag, name, ...) R_##tag##_##name,
#include "replay/sim/rules.def"
#undef SIM_RULE
	R_COUNT
};

struct sim_rule {
	const char *tag;      /* "T4" */
	const char *commit;   /* "c4608d1bf7c6" */
	int from;             /* SIM_KV: the first release with it */
	int until;            /* the first release without it again; 0: none */
	bool by_probe;        /* `host` takes it only when its probe sees the kernel do it */
	int backports[2];     /* SIM_KV of stable releases that took it early; 0: none */
	const char *what;
};
extern const struct sim_rule sim_rules[R_COUNT];

struct sim_profile {
	const char *name;     /* "6.12" */
	int kv;               /* the release it stands for: SIM_KV(6, 12, 117) */
	bool probes;          /* host: by_probe rules follow `probed`, not the release */
	uint32_t probed;      /* 1 << rule: by_probe rules this kernel showed (host) */
};
bool sim_has(const struct sim_profile *p, int rule);
/* "6.8 c4608d1bf7c6 T4" for a rule (", host probes it" added for by_probe) */
const char *sim_rule_cite(int rule, char *buf, size_t n);
/* the by_probe rules the running kernel shows (host_probe.c), 1 << rule */
uint32_t sim_host_probe(void);

/* ---- VMAs and the tree (tree.c) ---- */
struct sim_vma {
	uint64_t start, end, pgoff;
	uint64_t flags;
	uint32_t file_id;      /* 0 anonymous; shmem files get ids >= SIM_SHMEM_ID */
	uint32_t anon_vma;     /* 0: not faulted; else identity of the anon_vma */
	bool fork_child;       /* anon_vma chain longer than one (inherited) */
	bool special;          /* VM_SPECIAL-like kernel mappings ([vdso], ...) */
	uint32_t policy;       /* mempolicy identity, 0: none (mbind, P1) */
	uint32_t name;         /* anon_vma_name identity, 0: none (N1) */
	uint32_t uffd;         /* userfaultfd context: its descriptor + 1, 0: none (U1) */
	/* treap */
	struct sim_vma *l, *r;
	uint32_t prio, cnt;
	uint64_t gap_lo;       /* end of the previous VMA (0 for the first) */
	uint64_t max_gap;      /* max over the subtree of gap_hi - gap_lo */
};
#define SIM_SHMEM_ID 0x80000000u
#define SIM_SYSV_ID  0xc0000000u  /* SysV attachments: one id each (ops_shm.c) */

struct sim_tree {
	struct sim_vma *root;
	size_t count;
	uint32_t seed;
	/* the modelled cost of changing it (cost.c): every insert, erase and
	 * change is a maple store; all but sim_tree_end_changed preallocate */
	uint64_t stores, preallocs, nodes;
	uint32_t prealloc_nodes;   /* sim_prealloc_nodes(count), kept by insert/erase */
};
/* worst-case nodes of one preallocation: 1 + 3 x height, the height of a
 * maple tree of 2n + 1 ranges (VMAs and gaps) at about 8 per node */
static inline uint64_t sim_prealloc_nodes(size_t n)
{
	return 1 + 3 * (uint64_t)((64 - __builtin_clzll(2 * (unsigned long long)n + 1) + 2) / 3);
}

uint64_t sim_start_gap(const struct sim_vma *v);
void sim_tree_insert(struct sim_tree *t, struct sim_vma *v);
void sim_tree_erase(struct sim_tree *t, struct sim_vma *v);
/* after changing v->start/end in place (order kept): fix gaps/aggregates */
void sim_tree_changed(struct sim_tree *t, struct sim_vma *v);
/* the same when only v->end moved (v's own gap below it is unchanged) */
void sim_tree_end_changed(struct sim_tree *t, struct sim_vma *v);
/* every node's cached gap, subtree size and max gap as recomputed (tests) */
bool sim_tree_valid(const struct sim_tree *t);
struct sim_vma *sim_tree_find(const struct sim_tree *t, uint64_t addr);  /* first with end > addr */
struct sim_vma *sim_tree_prev(const struct sim_tree *t, const struct sim_vma *v);
struct sim_vma *sim_tree_next(const struct sim_tree *t, const struct sim_vma *v);
struct sim_vma *sim_tree_first(const struct sim_tree *t);
struct sim_vma *sim_tree_last(const struct sim_tree *t);
struct sim_vma *sim_tree_at(const struct sim_tree *t, size_t i);
/* highest start in [low, high - len] of a free gap of len bytes, 0 if none */
uint64_t sim_tree_gap_topdown(const struct sim_tree *t, uint64_t len, uint64_t low, uint64_t high);
void sim_tree_free(struct sim_tree *t);

/* ---- resident pages as folios (resident.c) ---- */
/* SIM_RUN_GUARD: guard markers (MADV_GUARD_INSTALL, X3), page-table
 * entries without a page: they move with mremap, go with munmap, survive
 * MADV_DONTNEED and are copied by fork like the pages beside them */
enum sim_run_kind { SIM_RUN_ANON, SIM_RUN_ZERO, SIM_RUN_FILE, SIM_RUN_GUARD };
/* [start, end): pages in folios of 4 KiB << order, aligned to their size
 * where they were faulted (a partial unmap may leave part of one) */
struct sim_run {
	uint64_t start, end;
	uint8_t order;         /* 0: 4 KiB, 2..8: mTHP, 9: a 2 MiB page */
	uint8_t kind;          /* enum sim_run_kind: zero-filled, the zero page, file */
};

/* ---- the address space ---- */
struct sim_mm {
	const struct sim_profile *prof;
	struct sim_tree tree;
	uint64_t page, mmap_min_addr, max_map_count;
	uint64_t mmap_base;
	uint64_t start_brk, brk;
	uint64_t def_flags;          /* mlockall(MCL_FUTURE) */
	bool cap_rawio;              /* CAP_SYS_RAWIO: fixed maps below mmap_min_addr allowed */
	uint32_t gate_vmas;          /* [vsyscall]: listed in maps, not in the tree */
	uint64_t gate_start, gate_end;
	uint32_t next_anon_vma;      /* identities */
	uint32_t next_shmem;
	uint32_t next_sysv;          /* 0: SIM_SYSV_ID */
	int how;                     /* outcome of the last sim_map_range */
	struct sim_vma *grown;       /* this call's: the VMA a brk made or grew, or NULL */
	char rule[200];              /* the last call's rule */
	const char *rule_fixed;      /* or a fixed text (no formatting cost) */
	/* the last two fixed texts and their interned copies (a brk loop
	 * alternates between two) */
	struct { const char *src, *kept; } kept[2];
	char brk_msg[2][192];        /* the brk rule texts, formatted once */
	struct sim_cost cost;        /* but the tree's stores (cost.c) */
	int thp;                     /* enum sim_thp, never SIM_THP_HOST */
	uint32_t mthp_always, mthp_madvise;   /* mTHP orders enabled (sim_mm_set_mthp) */
	struct sim_run *runs;        /* resident pages, sorted, disjoint (resident.c) */
	size_t nruns, caprun;
	/* what a brk expansion costs in this release (sim_mm_new): C1
	 * preallocates; M1 without M2 walks to prev and next again */
	bool brk_prealloc;
	uint8_t brk_rewalks;
	uint32_t brk_cited;          /* the rules a brk expansion's cost follows (1 << rule) */
	bool seal_precheck;          /* X7: calls walk their range for sealed VMAs first */
	/* process-wide switches the prctl options set (fork keeps them) */
	uint8_t thp_disabled;        /* PR_SET_THP_DISABLE (H1): 1 all, 2 but VM_HUGEPAGE */
	bool mdwe;                   /* PR_SET_MDWE refuse-exec-gain (W1) */
	bool mdwe_no_inherit;        /* ... not in fork children */
	bool ksm_any;                /* PR_SET_MEMORY_MERGE (K1) */
	uint32_t next_policy;        /* identities of mempolicies and names */
	/* the per-event cost (cost.c): the rules this call's work followed,
	 * and the counts already kept for earlier events */
	uint32_t cited;
	struct sim_cost kept_cost;
	struct sim_events *events;   /* where per-event costs go, or NULL (sim_mm_keep_events) */
};
_Static_assert(R_COUNT <= 32, "rule masks are 32 bits");
/* a write fault in v may take a 2 MiB page (cost.c) */
bool sim_thp_eligible(const struct sim_mm *mm, const struct sim_vma *v);
/* resident.c: the first touches of the pages of [lo, hi) of v that the
 * bits name (page i at base + i pages) and are not resident yet: each
 * faults in a folio, counted as zeroing */
void sim_res_touch(struct sim_mm *mm, const struct sim_vma *v, uint64_t lo, uint64_t hi,
                   uint64_t base, const uint8_t *bits);
/* every page of [lo, hi) of v (MAP_POPULATE, mlock, MADV_POPULATE_WRITE) */
void sim_res_populate(struct sim_mm *mm, const struct sim_vma *v, uint64_t lo, uint64_t hi);
bool sim_res_any(const struct sim_mm *mm, uint64_t lo, uint64_t hi);
/* the pages and guard markers of [lo, hi) are gone (unmapped) */
void sim_res_drop(struct sim_mm *mm, uint64_t lo, uint64_t hi);
/* the pages of [lo, hi) are gone, its guard markers stay (MADV_DONTNEED) */
void sim_res_zap(struct sim_mm *mm, uint64_t lo, uint64_t hi);
/* guard markers on [lo, hi), its pages zapped (MADV_GUARD_INSTALL) */
void sim_res_guard(struct sim_mm *mm, uint64_t lo, uint64_t hi);
/* the guard markers of [lo, hi) removed (MADV_GUARD_REMOVE) */
void sim_res_unguard(struct sim_mm *mm, uint64_t lo, uint64_t hi);
/* [lo, hi) holds a page other than the zero page */
bool sim_res_pages(const struct sim_mm *mm, uint64_t lo, uint64_t hi);
/* the first guard marker in [lo, hi), or hi if none */
uint64_t sim_res_guarded(const struct sim_mm *mm, uint64_t lo, uint64_t hi);
/* the pages of [lo, hi) now at dst (mremap; what was at dst is gone) */
void sim_res_move(struct sim_mm *mm, uint64_t lo, uint64_t hi, uint64_t dst);
/* fork copies v's page tables (v has an anon_vma): its pages go to the
 * child, which counts pte_copy and fork_rmap (F1 batches large folios) */
void sim_res_fork(struct sim_mm *child, const struct sim_mm *parent, const struct sim_vma *v);
void sim_res_free(struct sim_mm *mm);
/* a fresh count from here on (after building a space) */
void sim_cost_reset(struct sim_mm *mm);
/* X7: the call walks its range for sealed VMAs before its own walk */
void sim_cost_seal_precheck(struct sim_mm *mm);
/* sim_rule_cite, and the call's work follows the rule (mm->cited) */
const char *sim_cite(struct sim_mm *mm, int rule, char *buf, size_t n);

struct sim_vma *sim_vma_new(struct sim_mm *mm);
void sim_vma_free(struct sim_mm *mm, struct sim_vma *v);
static inline uint64_t vma_pages(const struct sim_vma *v) { return (v->end - v->start) / SIM_PAGE; }
static inline bool vma_is_anon(const struct sim_vma *v) { return v->file_id == 0 && !v->special; }

/* rule text for this call: sim_rule appends ("; "), _force replaces */
void sim_rule(struct sim_mm *mm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sim_rule_force(struct sim_mm *mm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* a fixed text that outlives the call (hot paths) */
void sim_rule_fixed(struct sim_mm *mm, const char *text);
/* Refuse the call with -err: every refusal names its rule (a literal). */
static inline int64_t sim_fail(struct sim_mm *mm, int err, const char *why)
{
	sim_rule_fixed(mm, why);
	return -err;
}
/* The same for a refusal that a rule of rules.def makes: "why (X1 8be7258aad44)". */
int64_t sim_fail_by(struct sim_mm *mm, int err, const char *why, int rule);
/* the process-lifetime copy of a rule text (intern.c) */
const char *sim_intern(const char *text);

/* ---- outcomes (around.c; classified by lib/outcome.c) ---- */
/* The ranges of the VMAs around a call's range, as the kernel back end
 * sees them (vq_around / vq_intersecting; at most VQ_MAX stored). */
#define SIM_SNAP_MAX 64
struct sim_snap {
	size_t n;                       /* how many there are */
	uint64_t r[SIM_SNAP_MAX][2];    /* the first SIM_SNAP_MAX */
};
void sim_snap_around(const struct sim_mm *mm, uint64_t lo, uint64_t hi, struct sim_snap *s);
void sim_snap_intersecting(const struct sim_mm *mm, uint64_t lo, uint64_t hi, struct sim_snap *s);
/* The effect a call has on its range: which of vr_classify's changes. */
enum sim_fx { SIM_FX_NONE, SIM_FX_CREATE, SIM_FX_REMOVE, SIM_FX_MODIFY };

/* ---- placement (place.c) ---- */
struct sim_place {
	uint64_t addr, len, pgoff;
	uint64_t mflags;       /* MAP_* */
	bool file, shared;
	uint64_t vm_flags;
};
/* returns the address or a negative errno */
int64_t sim_get_unmapped_area(struct sim_mm *mm, const struct sim_place *pl);

/* ---- merging and modification (merge.c) ---- */
/* Attributes of a range about to be mapped at [start, end). */
struct sim_newrange {
	uint64_t start, end, pgoff, flags;
	uint32_t file_id, anon_vma;
	bool fork_child;
	bool special;
	const struct sim_vma *apart;   /* never merge with this neighbour (NULL: any) */
	bool alone;                    /* merge with nothing */
	bool next_first;               /* mmap_region before M1: next is tried first */
	bool copied;                   /* mremap's copy of an existing VMA (copy_vma) */
	uint32_t policy, name, uffd;   /* as struct sim_vma's */
	const char *apart_why;         /* the rule text for either */
};
/* Insert a new range into a hole, merging as the profile allows.  Returns
 * the VMA now covering it and sets *how to VR_NEW/EXPAND_PREV/... */
struct sim_vma *sim_map_range(struct sim_mm *mm, const struct sim_newrange *nr, int *how);
/* Remove [start, end); -errno (ENOMEM at max_map_count). *changed set. */
int sim_unmap_range(struct sim_mm *mm, uint64_t start, uint64_t end, bool *changed);
/* vma_modify: give [start, end) of v the flags nf (merge or split). Returns
 * the VMA now covering start or NULL with *err set. */
struct sim_vma *sim_modify(struct sim_mm *mm, struct sim_vma *v, uint64_t start, uint64_t end,
                           uint64_t nf, int *err);
/* the same with a mempolicy, an anon name and a userfaultfd context too
 * (mbind, PR_SET_VMA, UFFDIO_(UN)REGISTER) */
struct sim_vma *sim_modify_attr(struct sim_mm *mm, struct sim_vma *v, uint64_t start, uint64_t end,
                                uint64_t nf, uint32_t policy, uint32_t name, uint32_t uffd, int *err);
/* split v at addr (v keeps the lower part); returns the upper part */
struct sim_vma *sim_split(struct sim_mm *mm, struct sim_vma *v, uint64_t addr);
/* give v an anon_vma as a write fault would (reusing a neighbour's) */
void sim_fault(struct sim_mm *mm, struct sim_vma *v);
/* populate [lo, hi) of v (MAP_POPULATE, mlock): sim_fault if that gives
 * it an anon_vma */
void sim_populate(struct sim_mm *mm, struct sim_vma *v, uint64_t lo, uint64_t hi);

/* VM_MERGEABLE for a new VMA of flags f when PR_SET_MEMORY_MERGE is on
 * (ksm_vma_flags), else 0 (ops_process.c) */
uint64_t sim_ksm_flags(const struct sim_mm *mm, uint64_t f);

/* ---- operations (ops_*.c) ---- */
struct sim_call {
	uint64_t a[6];
	const struct vmt_file *file;
	uint32_t file_id;
	const struct vmt_ranges *ranges;   /* the event's RANGES record, or NULL */
	int32_t err;                       /* the recorded errno (config-dependent calls) */
	int32_t pid;                       /* the recorded caller (process_madvise: its own pidfd?) */
};
/* each returns the syscall result or -errno, and sets *changed */
int64_t sim_do_mmap(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_munmap(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_brk(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_mremap(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_mprotect(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_pkey_mprotect(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_madvise(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_mlock(struct sim_mm *mm, const struct sim_call *c, int sys, bool *changed);
int64_t sim_do_mseal(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_shmat(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_shmdt(struct sim_mm *mm, const struct sim_call *c, bool *changed);
/* ops_attr.c: mbind, set_mempolicy_home_node, PR_SET_VMA, UFFDIO_(UN)REGISTER */
int64_t sim_do_mbind(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_home_node(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_anon_name(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_uffd_register(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_uffd_unregister(struct sim_mm *mm, const struct sim_call *c, bool *changed);
/* ops_process.c: the prctl options, process_madvise, remap_file_pages,
 * map_shadow_stack */
int64_t sim_do_thp_disable(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_memory_merge(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_mdwe(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_process_madvise(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_remap_file_pages(struct sim_mm *mm, const struct sim_call *c, bool *changed);
int64_t sim_do_map_shadow_stack(struct sim_mm *mm, const struct sim_call *c, bool *changed);

#endif
