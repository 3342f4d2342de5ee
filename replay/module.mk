# replay/: vmreplay, its kernel back end (and, in replay/sim/, the simulator).

VMREPLAY_SRCS := $(wildcard replay/*.c)
BINS += $(BUILD)/bin/vmreplay

$(BUILD)/bin/vmreplay: $(call objs,$(VMREPLAY_SRCS)) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LIBVMT_LIBS) $(VMREC_LDFLAGS)
