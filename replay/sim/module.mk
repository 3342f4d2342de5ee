# replay/sim/: the simulator of the kernel's VMA layer (libvmsim.a).

LIBVMSIM_SRCS := $(wildcard replay/sim/*.c)
