# make fuzz [FUZZ_SECONDS=N]: every libFuzzer harness for N seconds (clang,
# libclang-rt-14-dev), each from its kept corpus; new inputs collect in
# $(BUILD)/fuzz/<name>-corpus and findings are written as
# $(BUILD)/fuzz/<name>-crash-* (copy the interesting ones into the kept
# corpus, which make check replays).  The trace reader's and the
# simulator's harnesses are in traces/module.mk and replay/sim/module.mk;
# these link a whole tool, its main renamed (tests/fuzz/fuzz.h).

FUZZ_FLAGS := -std=gnu11 -g -O1 -D_GNU_SOURCE -I. -Itraces \
              -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

# $(call fuzz_harness,NAME,HARNESS,MAIN_OF,SOURCES,LIBS,CORPUS)
# MAIN_OF: the tool whose main is renamed (vmreport, vmtrace, vmreplay) or -
define fuzz_harness
.PHONY: fuzz-$(1)
fuzz: fuzz-$(1)
fuzz-$(1): $$(BUILD)/fuzz/fuzz_$(1)
	@mkdir -p $$(BUILD)/fuzz/$(1)-corpus
	$$(BUILD)/fuzz/fuzz_$(1) -max_total_time=$$(FUZZ_SECONDS) -rss_limit_mb=2048 \
	  -timeout=$$(FUZZ_TIMEOUT) -artifact_prefix=$$(BUILD)/fuzz/$(1)- $$(BUILD)/fuzz/$(1)-corpus $(6)
$$(BUILD)/fuzz/fuzz_$(1): $(2) $(4) tests/fuzz/fuzz.h $$(wildcard traces/*.h lib/*.h analysis/*.h replay/*.h replay/sim/*.h replay/sim/*.def replay/vm/*.h)
	@mkdir -p $$(@D)
	$$(FUZZ_CC) $$(FUZZ_FLAGS) $(if $(filter-out -,$(3)),-Dmain=$(3)_main) -o $$@ $(2) $(4) $(5)
endef

FUZZ_TOOL_LIBS := $(LIBVMT_LIBS) $(JSON_LIBS) $(SYMBOLIZE_LIBS) -lpthread -lm -ldl

$(eval $(call fuzz_harness,results,tests/report/fuzz/fuzz_results.c,vmreport,\
  $(VMREPORT_SRCS) $(LIBSHARED_SRCS) $(LIBVMT_SRCS),$(FUZZ_TOOL_LIBS),tests/report/fuzz/corpus))
$(eval $(call fuzz_harness,tools,tests/vmtrace/fuzz/fuzz_tools.c,vmtrace,\
  $(VMTRACE_SRCS) $(LIBSHARED_SRCS) $(LIBVMT_SRCS),$(FUZZ_TOOL_LIBS),tests/vmtrace/fuzz/tools-corpus))
$(eval $(call fuzz_harness,import,tests/vmtrace/fuzz/fuzz_import.c,vmtrace,\
  $(VMTRACE_SRCS) $(LIBSHARED_SRCS) $(LIBVMT_SRCS),$(FUZZ_TOOL_LIBS),tests/vmtrace/fuzz/import-corpus))
# without jemalloc (jemalloc_conf.c): the sanitizers' allocator is the one
$(eval $(call fuzz_harness,replay,tests/replay/fuzz/fuzz_replay.c,vmreplay,\
  $(filter-out replay/jemalloc_conf.c,$(VMREPLAY_SRCS)) $(VMREPLAY_VM_SRCS) $(LIBVMSIM_SRCS) \
  $(LIBSHARED_SRCS) $(LIBVMT_SRCS),$(FUZZ_TOOL_LIBS),tests/replay/fuzz/corpus))
# the simulator's default calibration, generated (replay/sim/module.mk)
$(BUILD)/fuzz/fuzz_replay: FUZZ_FLAGS += -I$(OBJ)/replay/sim
$(BUILD)/fuzz/fuzz_replay: $(OBJ)/replay/sim/calib_default.inc
$(eval $(call fuzz_harness,store,tests/trace/fuzz/fuzz_store.c,-,$(LIBVMT_SRCS),$(LIBVMT_LIBS),\
  tests/trace/fuzz/store-corpus))
