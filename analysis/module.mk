# analysis/: vmtrace (inspect, convert, validate, synthesize) and vmreport.

VMTRACE_SRCS  := $(wildcard analysis/vmtrace*.c)
VMREPORT_SRCS := $(wildcard analysis/vmreport*.c)
BINS += $(BUILD)/bin/vmtrace $(BUILD)/bin/vmreport

$(BUILD)/bin/vmtrace: $(call objs,$(VMTRACE_SRCS)) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LIBVMT_LIBS) $(VMREC_LDFLAGS)

$(BUILD)/bin/vmreport: $(call objs,$(VMREPORT_SRCS))
	@mkdir -p $(@D)
	$(CC) -o $@ $^ -lm $(VMREC_LDFLAGS)
