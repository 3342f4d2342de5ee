# tests/: shell TAP scripts (tests/<area>/*.t) run in place, and compiled
# TAP programs (tests/<area>/*_test.c -> $(BUILD)/tests/<area>/*.t).
# Helper programs that tests run live in tests/<area>/progs/*.c and build to
# $(BUILD)/tests/<area>/progs/*.

TEST_C_SRCS := $(filter-out tests/bench/%,$(wildcard tests/*/*_test.c))
TEST_BINS   += $(patsubst tests/%_test.c,$(BUILD)/tests/%.t,$(TEST_C_SRCS))
TEST_PROG_SRCS := $(wildcard tests/*/progs/*.c)
TEST_BINS   += $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_PROG_SRCS))

$(BUILD)/tests/%.t: $(OBJ)/tests/%_test.o $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(LIBVMT) $(LIBVMT_LIBS) $(TEST_LIBS_$(*D)) $(VMREC_LDFLAGS)

$(BUILD)/tests/%: $(OBJ)/tests/%.o
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(TEST_PROG_LIBS) -lpthread -ldl $(VMREC_LDFLAGS)

# The corpus tests of the tools' fuzz harnesses (tests/fuzz/corpus.h)
# link the tool's objects, its main renamed (mk/rules.mk).
FUZZ_VMREPORT_OBJS := $(filter-out $(OBJ)/analysis/vmreport.o,$(VMREPORT_OBJS)) $(OBJ)/renamed/analysis/vmreport.o
FUZZ_VMTRACE_OBJS  := $(filter-out $(OBJ)/analysis/vmtrace.o,$(VMTRACE_OBJS)) $(OBJ)/renamed/analysis/vmtrace.o
FUZZ_VMREPLAY_OBJS := $(filter-out $(OBJ)/replay/vmreplay.o,$(call objs,$(VMREPLAY_SRCS))) \
                      $(OBJ)/renamed/replay/vmreplay.o $(VMREPLAY_VM_OBJS)
FUZZ_TEST_LIBS     := $(LIBSHARED) $(LIBVMT) $(LIBVMT_LIBS) $(JSON_LIBS) $(SYMBOLIZE_LIBS) -lm
$(BUILD)/tests/report/fuzz_corpus.t: $(FUZZ_VMREPORT_OBJS) $(LIBSHARED)
$(BUILD)/tests/report/fuzz_corpus.t: TEST_LIBS_report += $(FUZZ_VMREPORT_OBJS) $(FUZZ_TEST_LIBS)
$(BUILD)/tests/vmtrace/fuzz_tools_corpus.t $(BUILD)/tests/vmtrace/fuzz_import_corpus.t: $(FUZZ_VMTRACE_OBJS) $(LIBSHARED)
$(BUILD)/tests/vmtrace/fuzz_tools_corpus.t $(BUILD)/tests/vmtrace/fuzz_import_corpus.t: \
  TEST_LIBS_vmtrace += $(FUZZ_VMTRACE_OBJS) $(FUZZ_TEST_LIBS)
$(BUILD)/tests/replay/fuzz_corpus.t: $(FUZZ_VMREPLAY_OBJS) $(LIBVMSIM) $(LIBSHARED)
$(BUILD)/tests/replay/fuzz_corpus.t: TEST_LIBS_replay := $(FUZZ_VMREPLAY_OBJS) $(LIBVMSIM) $(FUZZ_TEST_LIBS) \
  -ljemalloc -lpthread -ldl
