/* membudget.h - the replay's memory budget (--mem-limit): its default,
 * how a limit is written, and what a process of the replay holds now.
 * The driver adds up what its replayers hold beyond what each had when it
 * started (engine.c), and stops the replay, not the machine, past it. */
#ifndef VMREPLAY_MEMBUDGET_H
#define VMREPLAY_MEMBUDGET_H

#include <stdint.h>
#include <sys/types.h>

/* "512M", "2G", "65536K", "1048576" (bytes), "25%" (of rp_mem_total());
 * "0" or "none": no budget.  0 with *bytes set, or -1 (not a size). */
int rp_mem_parse(const char *arg, uint64_t *bytes);
/* The memory this process may count on: RAM, or its memory cgroup's
 * limit when lower (v2 memory.max or v1 memory.limit_in_bytes). */
uint64_t rp_mem_total(void);
/* The budget when --mem-limit is not given: half of rp_mem_total(). */
uint64_t rp_mem_default(void);
/* Bytes resident in process pid (0: this one), from /proc/PID/statm (the
 * kernel's counters: no lock the replayed calls take); -1 when it is gone.
 * Allocates nothing. */
int64_t rp_mem_resident(pid_t pid);
/* "1.5 GiB", "300 MiB": for messages. */
void rp_mem_format(uint64_t bytes, char *buf, size_t size);

#endif
