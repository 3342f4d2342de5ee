/* stacks.h - optional call stacks (--stacks), deduplicated per process. */
#ifndef SHIM_STACKS_H
#define SHIM_STACKS_H

#include <stdint.h>

int stacks_init(int depth);         /* 0, or -1 when libunwind is missing */
uint32_t stacks_capture(int depth); /* the id of this call's stack, 0 if none */
void stacks_forget(void);           /* in a fork child: ids restart */
void stacks_modules_changed(void);  /* an object was mapped: describe it */

#endif
