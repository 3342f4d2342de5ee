/* vmaquery.h - the VMAs of this process around an address range, through
 * PROCMAP_QUERY (Linux 6.11+) or, where that is missing, /proc/self/maps. */
#ifndef VMREPLAY_VMAQUERY_H
#define VMREPLAY_VMAQUERY_H

#include <stddef.h>
#include <stdint.h>

struct vq_vma {
	uint64_t start, end;
	uint32_t prot;         /* VMT_PROT_* */
	uint32_t shared;
	uint64_t inode;        /* 0: anonymous (private or not shmem) */
};

#define VQ_MAX 64

/* VMAs with end >= lo and start <= hi (so the neighbours touching the range
 * are included): `n` of them, the first VQ_MAX stored. */
struct vq_list {
	size_t n;
	struct vq_vma v[VQ_MAX];
};

int vq_open(void);          /* 0; falls back silently when unsupported */
void vq_close(void);
int vq_has_procmap_query(void);
/* -1 when neither way works. */
int vq_around(uint64_t lo, uint64_t hi, struct vq_list *out);
/* Only the VMAs intersecting [lo, hi) (fewer queries than vq_around). */
int vq_intersecting(uint64_t lo, uint64_t hi, struct vq_list *out);
/* Count the VMAs intersecting any of the sorted, disjoint ranges. */
int64_t vq_count_in(const uint64_t (*ranges)[2], size_t n);
/* The VMA covering addr (1), none (0), error (-1). */
int vq_covering(uint64_t addr, struct vq_vma *v);

#endif
