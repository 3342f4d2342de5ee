/* sysfmt.h - system calls of a trace formatted as strace formats them. */
#ifndef VMREC_SYSFMT_H
#define VMREC_SYSFMT_H

#include <stddef.h>
#include "vmt.h"

/* "mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f12a000"
 * (no pid prefix, no newline).  Returns the length it wanted, like snprintf. */
size_t sysfmt_call(char *buf, size_t size, const struct vmt_event *ev);

#endif
