# replay/sim/: the simulator of the kernel's VMA layer (libvmsim.a), linked
# into vmreplay for --target sim.

LIBVMSIM_SRCS := $(wildcard replay/sim/*.c)
LIBVMSIM      := $(BUILD)/lib/libvmsim.a

$(LIBVMSIM): $(call objs,$(LIBVMSIM_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^
