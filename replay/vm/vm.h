/* vm.h - replay inside a real kernel booted under QEMU. */
#ifndef VMREC_VM_H
#define VMREC_VM_H

struct rp_opts;

/* `vmreplay --vm KERNELS [options] TRACE`: vmreplay's main() hands its
 * parsed command line (replay/options.h) here when --vm is given.
 * Returns the exit status. */
int vm_replay_main(const struct rp_opts *o);

#endif
