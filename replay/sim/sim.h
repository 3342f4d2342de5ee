/* sim.h - the simulator of the kernel's VMA layer: the contract between the
 * simulator (replay/sim/) and vmreplay's driver (replay/).
 *
 * The driver owns the trace, address translation and the process tree; it
 * hands the simulator one system call at a time, with addresses already in
 * the simulated address space, exactly as it would hand them to the kernel.
 * The simulator answers with the same struct vr_result the kernel back end
 * fills, plus the rule that decided the outcome.
 */
#ifndef VMREC_SIM_H
#define VMREC_SIM_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "vmt.h"
#include "lib/outcome.h"

struct sim_profile;   /* one kernel release's rules (profiles.c) */
struct sim_mm;        /* one simulated address space */
struct sim_events;    /* one replay's modelled cost per event (sim_events_new) */

/* "6.1", "6.8", "6.12", ... or "host" (the profile for uname -r, plus the
 * rules a short probe of this kernel shows: docs/kernel-profiles.md).  NULL when
 * unknown; sim_profile_names() lists the known ones, comma-separated. */
const struct sim_profile *sim_profile_find(const char *version);
const char *sim_profile_name(const struct sim_profile *p);  /* "6.12" */
/* The rules `host` took from probing this kernel's behaviour rather than
 * from its release, comma-separated tags ("Z1"); "" for other profiles. */
const char *sim_profile_probed(const struct sim_profile *p);
const char *sim_profile_names(void);
/* The release profiles in order, oldest first (not `host`): i from 0 to
 * sim_profile_count() - 1; NULL past the end. */
size_t sim_profile_count(void);
const struct sim_profile *sim_profile_at(size_t i);
/* vmreplay --list-rules: one line per rule, tab-separated: tag, releases,
 * commit, "probed" (host asks this kernel) or "-", what it says. */
void sim_list_rules(FILE *f);
/* vmreplay --list-profiles: one line per profile, tab-separated: name, the
 * release it stands for, the tags of its rules; `host` last. */
void sim_list_profiles(FILE *f);

/* A new address space laid out as `map` (the recorded initial memory map;
 * may be NULL for an empty one), with the host limits of the recording
 * (page size, mmap_min_addr, max_map_count; NULL: x86-64 defaults). */
struct sim_mm *sim_mm_new(const struct sim_profile *p,
                          const struct vmt_map *map,
                          const struct vmt_host *host);
/* The same with its transparent_hugepage/enabled mode given (enum
 * sim_thp): a driver that makes many spaces resolves SIM_THP_HOST once
 * (sim_thp_host) instead of reading the file for each. */
struct sim_mm *sim_mm_new_thp(const struct sim_profile *p, const struct vmt_map *map,
                              const struct vmt_host *host, int thp);
/* fork: the child's address space (VM_DONTCOPY dropped, WIPEONFORK
 * emptied, anon_vma chains of a fork child). */
struct sim_mm *sim_mm_fork(const struct sim_mm *parent);
void sim_mm_free(struct sim_mm *mm);

/* Apply one system call (ev->sys, ev->args; result fields ignored).  File
 * identity comes from ev->file_id together with `file` (NULL if none).
 * shmat: `file` is the segment (its size); shmdt: args[1] is the length
 * of the attachment when the driver knows it (0: up to the first VMA of
 * another file), which the kernel reads from the segment itself. */
/* the same for a call with a RANGES record (process_madvise, the uffd
 * ioctls, PR_SET_VMA's name); ranges NULL: none */
void sim_apply_ranges(struct sim_mm *mm, const struct vmt_event *ev, const struct vmt_file *file,
                      const struct vmt_ranges *ranges, struct vr_result *out);
void sim_apply(struct sim_mm *mm, const struct vmt_event *ev,
               const struct vmt_file *file, struct vr_result *out);

/* Pages touched (faulted) between calls: gives VMAs an anon_vma as a write
 * fault would.  `res` as recorded by the shim. */
void sim_touch(struct sim_mm *mm, const struct vmt_residency *res);

size_t sim_vma_count(const struct sim_mm *mm);

/* Iterate the VMAs in address order: i from 0 to sim_vma_count() - 1. */
struct sim_vma_view {
	uint64_t start, end, pgoff;
	uint64_t vm_flags;    /* kernel VM_* bits as the model derives them */
	uint32_t file_id;
	int anon_faulted;
};
int sim_vma_at(const struct sim_mm *mm, size_t i, struct sim_vma_view *v);

/* The VMAs around [lo, hi) as replay/vmaquery.c's vq_around sees them: those
 * with end >= lo and start <= hi (intersecting the range, or touching it),
 * in address order.  Returns how many there are; the first `max` are
 * stored.  _intersecting: only end > lo and start < hi (vq_intersecting).
 * With these the driver derives a call's outcome the way it does for the
 * kernel; sim_apply classifies its own outcome with the same function
 * (vr_classify, lib/outcome.h). */
size_t sim_vmas_around(const struct sim_mm *mm, uint64_t lo, uint64_t hi,
                       struct sim_vma_view *out, size_t max);
size_t sim_vmas_intersecting(const struct sim_mm *mm, uint64_t lo, uint64_t hi,
                             struct sim_vma_view *out, size_t max);

/* The modelled kernel cost: the work the profile's release does for the
 * calls applied so far, in the kernel's own units (docs/kernel-profiles.md,
 * "Modelled cost", says what each counts and which commit changed it).
 * Deterministic: the same trace, profile and THP mode give the same counts.
 * A driver reports them as vmreplay.model.<name>. */
#define SIM_COSTS(X) \
	X(vma_alloc, "VMA structures allocated (vm_area_alloc, vm_area_dup)") \
	X(vma_free, "VMA structures freed") \
	X(mt_walk, "maple tree walks: the call's lookup plus re-walks of prev/next") \
	X(mt_store, "maple tree stores") \
	X(mt_prealloc, "maple node preallocations (mas_preallocate, vma_iter_prealloc)") \
	X(mt_nodes, "maple nodes preallocated: 1 + 3 x tree height each") \
	X(anon_vma, "anon_vma_prepare on a first write fault (allocated or shared)") \
	X(zero_4k, "4 KiB pages zeroed at first touch") \
	X(zero_2m, "2 MiB pages zeroed at first touch (THP-eligible, aligned block)") \
	X(zero_mthp, "4 KiB pages zeroed at first touch inside mTHP folios (--mthp)") \
	X(fault_mthp, "mTHP folios faulted in at first touch, one fault each") \
	X(tlb_flush, "TLB-flush ranges (unmap, protection change, DONTNEED/FREE, move)") \
	X(pte_copy, "page-table entries a fork copies (a PMD per resident 2 MiB page)") \
	X(fork_rmap, "refcount and rmap updates a fork makes: per page, per large folio from 6.9 (F1)") \
	X(mm_copy, "address spaces a fork copies (dup_mm: the fixed part of a fork)") \
	X(seal_check, "walks of a call's range for sealed VMAs before its own (can_modify_mm)") \
	X(calls, "system calls applied (each pays the fixed per-call cost)")
struct sim_cost {
#define SIM_COST_FIELD(name, what) uint64_t name;
	SIM_COSTS(SIM_COST_FIELD)
#undef SIM_COST_FIELD
};
/* The counts by index, for a driver that reports every one as
 * vmreplay.model.<name>: i from 0 to SIM_COST_COUNT - 1. */
enum {
#define SIM_COST_INDEX(name, what) SIM_COST_##name,
	SIM_COSTS(SIM_COST_INDEX)
#undef SIM_COST_INDEX
	SIM_COST_COUNT
};
const char *sim_cost_name(int i);     /* "mt_walk"; NULL out of range */
const char *sim_cost_what(int i);     /* its one-line description */
uint64_t sim_cost_value(const struct sim_cost *c, int i);
/* since sim_mm_new (the initial map is free) or, for a fork child, since
 * the fork (which it pays for: the copied VMAs) */
void sim_mm_cost(const struct sim_mm *mm, struct sim_cost *out);
/* transparent_hugepage/enabled for the zeroing cost: SIM_THP_HOST (what
 * sim_mm_new sets) reads this machine's there and then; a fork child
 * inherits the mode its parent had. */
enum sim_thp { SIM_THP_HOST, SIM_THP_ALWAYS, SIM_THP_MADVISE, SIM_THP_NEVER };
void sim_mm_set_thp(struct sim_mm *mm, int mode);
/* this machine's mode for 2 MiB pages, read now (hugepages-2048kB/enabled
 * where it is not `inherit`, else transparent_hugepage/enabled);
 * SIM_THP_NEVER when it cannot be read */
int sim_thp_host(void);
/* "always", "madvise", "never", "host": the mode, or -1 */
int sim_thp_parse(const char *word);
/* Anonymous folio sizes below 2 MiB (mTHP), as masks of orders (bit k:
 * 4 KiB << k, k 2..8): enabled `always` (any VMA but VM_NOHUGEPAGE) and
 * `madvise` (VM_HUGEPAGE VMAs).  A space starts with none (sim_mm_new_thp
 * with an explicit mode) or this machine's (SIM_THP_HOST); a fork child
 * inherits its parent's. */
void sim_mm_set_mthp(struct sim_mm *mm, uint32_t always, uint32_t madvise);
/* this machine's: /sys/kernel/mm/transparent_hugepage/hugepages-*kB/enabled
 * (`inherit` follows transparent_hugepage/enabled) */
void sim_mthp_host(uint32_t *always, uint32_t *madvise);
/* --mthp: "64K", "16K,64K", "none": the orders enabled always; 0, or -1
 * with why (16 KiB to 1 MiB, powers of two) */
int sim_mthp_parse(const char *list, uint32_t *always, char *why, size_t n);
/* "16K,64K" for a mask; "none" */
const char *sim_mthp_str(uint32_t orders, char *buf, size_t n);

/* The modelled kernel time: ns per unit of each count, measured on one
 * machine (`calls`: the fixed per-call cost), and the time they add up
 * to (vmreplay.model.cost_ns).  docs/kernel-profiles.md, "Modelled time". */
struct sim_calib {
	double unit_ns[SIM_COST_COUNT];
	uint64_t have;        /* 1 << i: unit i was given */
	char machine[160];    /* where: CPU and cores */
	char kernel[80];      /* its uname -r */
	char date[40];
};
/* the shipped calibration (replay/sim/calibration.txt, built in) */
const struct sim_calib *sim_calib_default(void);
/* a calibration file ("machine", "kernel", "date", "unit NAME NS" lines):
 * 0, or -1 with why */
int sim_calib_read(const char *path, struct sim_calib *out, char *why, size_t n);
int sim_calib_parse(const char *text, struct sim_calib *out, char *why, size_t n);
int sim_calib_write(FILE *f, const struct sim_calib *c);
double sim_cost_ns(const struct sim_cost *c, const struct sim_calib *k);

/* The modelled cost per event, for a driver that reports it event by
 * event: a table the driver owns and hands the spaces it reports on.
 * Such a space keeps every count it adds under the seq of the event it
 * adds them for (sim_apply's event; sim_touch's record: the event the
 * pages were resident before).  What a space adds between two (a fork
 * child's copy) goes to its next one.  NULL if out of memory;
 * sim_events_free(NULL) does nothing. */
struct sim_events *sim_events_new(void);
void sim_events_free(struct sim_events *ev);
/* By seq, so one replay at a time: this starts a new replay of the trace
 * (a loop); the counts stay readable until the next one is kept, then the
 * former replay's are gone. */
void sim_events_restart(struct sim_events *ev);
/* Keep mm's per-event counts in `ev`, or not (NULL, the default: a driver
 * that reports only totals, and the table costs nothing).  A fork child
 * inherits its parent's. */
void sim_mm_keep_events(struct sim_mm *mm, struct sim_events *ev);
/* Keep what mm added since the last time as event seq's: the simulator
 * does after each call it applies; a fork child's copy is kept at the
 * fork's seq by whoever forked it. */
void sim_cost_keep(struct sim_mm *mm, uint64_t seq);
/* The counts kept in `ev` for event `seq` of the current replay and the
 * rules of rules.def whose work they include (1 << i, i as sim_rule_id
 * takes it); 0 when none were kept (the event was not applied). */
int sim_event_cost(const struct sim_events *ev, uint64_t seq, struct sim_cost *out, uint32_t *rules);
/* A rule of rules.def by index, 0 to sim_rule_count() - 1: its id ("C1")
 * and *commit ("28c5609fb2"); NULL past the end. */
int sim_rule_count(void);
const char *sim_rule_id(int i, const char **commit);

/* Additions (replay/sim/): what a recorded map cannot say. */
/* The program break: start_brk and the current break (brk(0)'s answer).
 * Default: the [heap] VMA of the map, else 0 (brk then only fails). */
void sim_mm_set_brk(struct sim_mm *mm, uint64_t start_brk, uint64_t brk);
/* Where top-down placement starts.  Default: the end of the highest
 * mapping at least 128 MiB below [stack] (the loader or the vDSO, which the
 * kernel maps first from mmap_base), else TASK_SIZE - 128 MiB. */
void sim_mm_set_mmap_base(struct sim_mm *mm, uint64_t base);
uint64_t sim_mm_mmap_base(const struct sim_mm *mm);
/* Whether the process has CAP_SYS_RAWIO, which lets MAP_FIXED and
 * MREMAP_FIXED go below mmap_min_addr (cap_mmap_addr).  Default: no.  A
 * fork child inherits it. */
void sim_mm_set_cap_rawio(struct sim_mm *mm, int has);
/* Whether the VMA containing addr has an anon_vma (was written).  Default
 * for a map: private writable VMAs have one. */
void sim_mm_set_faulted(struct sim_mm *mm, uint64_t addr, int faulted);

#endif
