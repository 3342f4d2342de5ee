/* kernel_match.h - whether a replay ran on the kernel a trace was
 * recorded on, one rule for vmreplay (--strict) and vmreport (a column's
 * fidelity). */
#ifndef LIB_KERNEL_MATCH_H
#define LIB_KERNEL_MATCH_H

/* sim: the replay ran in the simulator, kernel its profile ("6.18" stands
 * for every 6.18.x; "host" for host_kernel, the uname -r of the machine
 * that replayed); else kernel is the uname -r it ran on.  recorded: the
 * trace header's uname -r; "" or NULL is never the same. */
int km_same_kernel(int sim, const char *kernel, const char *host_kernel, const char *recorded);

#endif
