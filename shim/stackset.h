/* stackset.h - the thread stacks glibc allocated itself (MAP_STACK mmaps
 * made from inside libc), so a thread's end can tell whether glibc will
 * release its stack with the madvise its exit event follows (record.c). */
#ifndef SHIM_STACKSET_H
#define SHIM_STACKSET_H

#include <stdint.h>

void stackset_add(uint64_t lo, uint64_t hi);
/* Forget every stack that meets [lo, hi) (munmap). */
void stackset_remove(uint64_t lo, uint64_t hi);
/* 1: addr is on a stack glibc allocated; 0: on a stack of the program's
 * own; -1: unknown (more stacks than the set holds). */
int stackset_holds(uint64_t addr);
/* In a fork child: the stacks stay mapped, the lock is free. */
void stackset_after_fork(void);

#endif
