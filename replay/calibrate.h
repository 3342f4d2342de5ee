/* calibrate.h - vmreplay --calibrate OUT: fit the simulator's cost per
 * model unit on this kernel (docs/kernel-profiles.md, "Modelled time"). */
#ifndef VMREPLAY_CALIBRATE_H
#define VMREPLAY_CALIBRATE_H

/* 0, or 2 with the reason printed (vmreplay's exit status). */
int rp_calibrate(const char *out);

#endif
