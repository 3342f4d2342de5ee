# analysis/: vmtrace (inspect, convert, validate, synthesize, attribute) and
# vmreport.  Files are picked up by name:
#   analysis/vmtrace*.c  analysis/sysfmt*.c  analysis/symbolize*.c  analysis/synth/*.c -> vmtrace
#   analysis/vmreport*.c analysis/json*.c                                 -> vmreport

SYSFMT_OBJS   := $(call objs,$(wildcard analysis/sysfmt*.c))
SYMBOLIZE_OBJS := $(call objs,$(wildcard analysis/symbolize*.c))
SYNTH_OBJS    := $(call objs,$(wildcard analysis/synth/*.c))
JSON_OBJS     := $(call objs,$(wildcard analysis/json*.c))
VMTRACE_OBJS  := $(call objs,$(wildcard analysis/vmtrace*.c)) $(SYSFMT_OBJS) \
                 $(SYMBOLIZE_OBJS) $(SYNTH_OBJS)
VMREPORT_OBJS := $(call objs,$(wildcard analysis/vmreport*.c)) $(JSON_OBJS) \
                 $(SYMBOLIZE_OBJS)
SYMBOLIZE_LIBS := -ldw -lelf

BINS += $(BUILD)/bin/vmtrace $(BUILD)/bin/vmreport
BENCH_SCRIPTS += tests/bench/symbolize.sh tests/bench/report-scaling.sh

$(BUILD)/bin/vmtrace: $(VMTRACE_OBJS) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LIBVMT_LIBS) $(SYMBOLIZE_LIBS) -lm $(VMREC_LDFLAGS)

$(BUILD)/bin/vmreport: $(VMREPORT_OBJS) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LIBVMT_LIBS) $(SYMBOLIZE_LIBS) -lm $(VMREC_LDFLAGS)
