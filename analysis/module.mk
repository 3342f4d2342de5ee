# analysis/: vmtrace (inspect, convert, validate, synthesize, attribute) and
# vmreport.  Files are picked up by name:
#   analysis/vmtrace*.c  analysis/sysfmt*.c  analysis/symbolize*.c  traces/synth/*.c
#                        analysis/json*.c                                 -> vmtrace
#   analysis/vmreport*.c analysis/json*.c                                 -> vmreport

SYSFMT_OBJS   := $(call objs,$(wildcard analysis/sysfmt*.c))
SYMBOLIZE_OBJS := $(call objs,$(wildcard analysis/symbolize*.c))
SYNTH_OBJS    := $(call objs,$(wildcard traces/synth/*.c))
JSON_OBJS     := $(call objs,$(wildcard analysis/json*.c))
VMTRACE_OBJS  := $(call objs,$(wildcard analysis/vmtrace*.c)) $(SYSFMT_OBJS) \
                 $(SYMBOLIZE_OBJS) $(SYNTH_OBJS) $(JSON_OBJS)
VMREPORT_OBJS := $(call objs,$(wildcard analysis/vmreport*.c)) $(JSON_OBJS) \
                 $(SYMBOLIZE_OBJS)
SYMBOLIZE_LIBS := -ldw -lelf
# jansson reads results files (docs/json.md); both tools read them.
JSON_LIBS     := -ljansson

BINS += $(BUILD)/bin/vmtrace $(BUILD)/bin/vmreport
BENCH_SCRIPTS += tests/bench/symbolize.sh tests/bench/report-scaling.sh

$(BUILD)/bin/vmtrace: $(VMTRACE_OBJS) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LIBVMT_LIBS) $(SYMBOLIZE_LIBS) $(JSON_LIBS) -lm $(VMREC_LDFLAGS)

$(BUILD)/bin/vmreport: $(VMREPORT_OBJS) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LIBVMT_LIBS) $(SYMBOLIZE_LIBS) $(JSON_LIBS) -lm $(VMREC_LDFLAGS)

# Tests that include a reader of results files (json_test.c includes
# json.c; results_test.c includes vmtrace_top_results.c, which calls it).
TEST_LIBS_report  += $(JSON_LIBS)
TEST_LIBS_symbols += $(JSON_OBJS) $(JSON_LIBS)
