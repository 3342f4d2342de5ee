# analysis/: vmtrace (inspect, convert, validate, synthesize, attribute) and
# vmreport; what they share with other tools is in lib/.

VMTRACE_SRCS  := analysis/vmtrace.c analysis/vmtrace_check.c analysis/vmtrace_dump.c \
                 analysis/vmtrace_files.c analysis/vmtrace_import.c analysis/vmtrace_seqs.c analysis/vmtrace_stats.c \
                 analysis/vmtrace_strace_argv.c analysis/vmtrace_strace_call.c analysis/vmtrace_strace_mem.c \
                 analysis/vmtrace_strace_line.c \
                 analysis/vmtrace_syscalls.c analysis/vmtrace_top.c \
                 analysis/vmtrace_top_live.c analysis/vmtrace_top_results.c \
                 analysis/vmtrace_top_sim.c \
                 analysis/synth/synth_aim9.c analysis/synth/synth_calib.c analysis/synth/synth_emit.c \
                 analysis/synth/synth_fork.c analysis/synth/synth_main.c \
                 analysis/synth/synth_pthread.c analysis/synth/synth_space.c \
                 analysis/synth/synth_tasks.c analysis/synth/synth_wis.c
VMREPORT_SRCS := analysis/vmreport.c analysis/vmreport_checks.c analysis/vmreport_compare.c \
                 analysis/vmreport_events.c analysis/vmreport_explain.c analysis/vmreport_format.c analysis/vmreport_html.c \
                 analysis/vmreport_html_plots.c analysis/vmreport_html_shared.c analysis/vmreport_json.c analysis/vmreport_lkp.c analysis/vmreport_md.c analysis/vmreport_names.c \
                 analysis/vmreport_results.c analysis/vmreport_stacks.c analysis/vmreport_stats.c \
                 analysis/vmreport_text.c
VMTRACE_OBJS  := $(call objs,$(VMTRACE_SRCS))
VMREPORT_OBJS := $(call objs,$(VMREPORT_SRCS))

BINS += $(BUILD)/bin/vmtrace $(BUILD)/bin/vmreport
BENCH_SCRIPTS += tests/bench/symbolize.sh tests/bench/report-scaling.sh tests/bench/report-aa.sh

$(BUILD)/bin/vmtrace: $(VMTRACE_OBJS) $(LIBSHARED) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LIBVMT_LIBS) $(SYMBOLIZE_LIBS) $(JSON_LIBS) -lm $(VMREC_LDFLAGS)

$(BUILD)/bin/vmreport: $(VMREPORT_OBJS) $(LIBSHARED) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LIBVMT_LIBS) $(SYMBOLIZE_LIBS) $(JSON_LIBS) -lm $(VMREC_LDFLAGS)

# Tests that include a reader of results files (json_test.c includes
# json.c; results_test.c includes vmtrace_top_results.c, which calls it
# and errmsg.c).
TEST_LIBS_report  += $(call objs,lib/input.c) $(JSON_LIBS)
TEST_LIBS_symbols += $(call objs,lib/json.c lib/input.c lib/errmsg.c) $(JSON_LIBS)
