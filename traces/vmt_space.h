/* vmt_space.h - one address space as its trace shows it: the ranges its
 * maps and calls say are mapped, and its break.  Enough to tell whether a
 * call could have happened when a trace puts it: vmt_order.c chooses the
 * order of calls that overlapped in time so that each could, and
 * vmt_check.c names the calls no kernel could have made where the trace
 * puts them (docs/trace-format.md, "Order").  What a call does comes from
 * the table of system calls (vmt_sys_effect).  Internal to the library. */
#ifndef VMT_SPACE_H
#define VMT_SPACE_H

#include <stddef.h>
#include <stdint.h>
#include "vmt.h"

/* Who made a range what it is: for naming the event a call conflicts with. */
struct vmt_space_who {
	uint64_t seq;        /* the event's seq, or the MAP record's */
	int32_t tid;         /* 0: the initial map */
	uint16_t sys;        /* VMT_SYS_NONE: the initial map */
};

struct vmt_space_range {
	uint64_t start, end;
	struct vmt_space_who who;
};

struct vmt_space {
	int32_t pid;
	uint64_t page;
	struct vmt_space_range *r;   /* sorted, disjoint */
	size_t n, cap;
	/* where a stack may have grown without a call (below a [stack]),
	 * not judged: [grow_lo, grow_hi) */
	uint64_t grow_lo, grow_hi;
	int partial;                 /* no initial map: what no call mapped is not known */
	uint64_t brk_start, brk;     /* 0: not known */
	int brk_exact;               /* 0: a map showed it, known to its page */
	struct vmt_space_who brk_who;
};

/* Why a call could not have happened in this state. */
enum vmt_space_verdict {
	VMT_SPACE_OK = 0,
	VMT_SPACE_MAPPED,     /* it was given a range that was still mapped */
	VMT_SPACE_UNMAPPED,   /* it succeeded on a range that was not (all) mapped */
	VMT_SPACE_BRK,        /* its result contradicts the break */
};
struct vmt_space_conflict {
	int verdict;          /* enum vmt_space_verdict */
	uint64_t start, end;  /* the range at issue */
	struct vmt_space_who who;   /* MAPPED: what mapped it; BRK: what set the break */
	uint64_t brk;         /* BRK: the break then */
};

void vmt_space_init(struct vmt_space *s, int32_t pid, uint64_t page);
void vmt_space_free(struct vmt_space *s);
/* The initial map of an image (replaces everything).  0 or VMT_ENOMEM. */
int vmt_space_load(struct vmt_space *s, const struct vmt_map *m);
/* A fork child's copy.  0 or VMT_ENOMEM. */
int vmt_space_copy(struct vmt_space *dst, const struct vmt_space *src, int32_t pid);
/* The part of src that meets [lo, hi), and its break, into dst (whose
 * memory is reused): enough to judge calls inside [lo, hi).  0 or
 * VMT_ENOMEM. */
int vmt_space_copy_part(struct vmt_space *dst, const struct vmt_space *src, uint64_t lo, uint64_t hi);
/* Whether ev could happen now: VMT_SPACE_OK, or the verdict with *why.
 * seg: an ATTACH's segment size (its FILE record), 0 unknown. */
int vmt_space_judge(const struct vmt_space *s, const struct vmt_event *ev, uint64_t seg,
                    struct vmt_space_conflict *why);
/* The pages some call must change before the call judged (why) could
 * happen: the first mapped part of a range it was given, the first
 * unmapped page of one it changed.  0 when no range says (a break). */
int vmt_space_in_the_way(const struct vmt_space *s, const struct vmt_space_conflict *why,
                         uint64_t *start, uint64_t *end);
/* ev happened: the ranges and the break follow it.  0 or VMT_ENOMEM. */
int vmt_space_apply(struct vmt_space *s, const struct vmt_event *ev, uint64_t seg);
/* The range ev names or makes, for telling whether two calls touch the
 * same pages; 0 when it names none (process-wide). */
int vmt_space_extent(const struct vmt_space *s, const struct vmt_event *ev, uint64_t seg,
                     uint64_t *start, uint64_t *end);

#endif
