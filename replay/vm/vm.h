/* vm.h - replay inside a real kernel booted under QEMU. */
#ifndef VMREC_VM_H
#define VMREC_VM_H

/* `vmreplay --vm KERNELS [options] TRACE`: vmreplay's main() hands the whole
 * command line here when --vm is given.  Returns the exit status. */
int vm_replay_main(int argc, char **argv);

#endif
