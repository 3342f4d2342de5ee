# shim/: libvmrec.so (the preload recorder) and the vmrec launcher.

SHIM_LIB_SRCS := $(filter-out shim/vmrec.c,$(wildcard shim/*.c))

LIBS += $(BUILD)/lib/libvmrec.so
BINS += $(BUILD)/bin/vmrec

$(BUILD)/lib/libvmrec.so: $(call objs,$(SHIM_LIB_SRCS)) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(call objs,$(SHIM_LIB_SRCS)) $(LIBVMT) $(LIBVMT_LIBS) $(VMREC_LDFLAGS)

$(BUILD)/bin/vmrec: $(call objs,shim/vmrec.c) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LIBVMT_LIBS) $(VMREC_LDFLAGS)
