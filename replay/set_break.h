/* set_break.h - move this process's heap: start_brk and the break set with
 * prctl(PR_SET_MM_MAP), which an unprivileged process may do on kernels
 * built with CONFIG_CHECKPOINT_RESTORE (Debian's are).  The replay puts a
 * recorded heap where the recording had it, beside the same neighbours,
 * instead of after the replayer's own data. */
#ifndef VMREPLAY_SET_BREAK_H
#define VMREPLAY_SET_BREAK_H

#include <stdint.h>

/* start_brk = brk = at (page aligned; nothing mapped from there on): 0, or
 * a negative errno (-EPERM, -EINVAL: this kernel or process cannot). */
int set_break_at(uint64_t at);
/* Whether set_break_at can work here: the same call with the values the
 * process has now, which changes nothing. */
int set_break_possible(void);

#endif
