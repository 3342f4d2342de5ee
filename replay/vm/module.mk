# replay/vm/: replay inside real kernels booted under QEMU (`vmreplay --vm`),
# and `make kernels`, the local store of Debian's cloud kernels.

VMREPLAY_VM_OBJS := $(call objs,$(wildcard replay/vm/*.c))
