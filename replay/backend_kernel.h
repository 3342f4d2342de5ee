/* backend_kernel.h - what the kernel back end offers besides struct rp_backend. */
#ifndef VMREPLAY_BACKEND_KERNEL_H
#define VMREPLAY_BACKEND_KERNEL_H

#include <stdint.h>
#include "replay/backend.h"
#include "replay/vmaquery.h"

/* The outcome of a call from the VMAs around fx before and after it. */
int rp_derive_outcome(const struct rp_effect *fx, const struct vq_list *before,
                      const struct vq_list *after);

/* Hold the low range (below RP_LOW_TOP) before the replayer allocates
 * anything; release it when the layout is chosen, which returns the
 * lowest address this process could hold there (0 with CAP_SYS_RAWIO;
 * UINT64_MAX: nothing was held, no low call keeps its address). */
void rp_kernel_hold_low(void);
uint64_t rp_kernel_release_low(void);

/* Give the private writable VMA at addr an anon_vma, as writing it would. */
void rp_kernel_written(uint64_t addr);

#endif
