# replay/sim/: the simulator of the kernel's VMA layer (libvmsim.a), linked
# into vmreplay for --target sim.

# The outcome definition both back ends share is lib/outcome.c (in
# libvmshared.a, which whatever links the simulator links too).
LIBVMSIM_SRCS := replay/sim/apply.c replay/sim/around.c replay/sim/calib.c \
	replay/sim/cost.c replay/sim/gen.c replay/sim/host_probe.c \
	replay/sim/intern.c replay/sim/merge.c replay/sim/mm.c \
	replay/sim/ops_attr.c replay/sim/ops_map.c replay/sim/ops_modify.c replay/sim/ops_mremap.c \
	replay/sim/ops_process.c \
	replay/sim/ops_shm.c replay/sim/place.c replay/sim/profiles.c replay/sim/resident.c \
	replay/sim/tree.c replay/sim/vm_flags.c
LIBVMSIM      := $(BUILD)/lib/libvmsim.a

# The shipped calibration, built in as a C string (calib.c includes it).
$(OBJ)/replay/sim/calib_default.inc: replay/sim/calibration.txt
	@mkdir -p $(@D)
	sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $< >$@
$(OBJ)/replay/sim/calib.o: $(OBJ)/replay/sim/calib_default.inc
$(OBJ)/replay/sim/calib.o: VMREC_CFLAGS += -I$(OBJ)/replay/sim

$(LIBVMSIM): $(call objs,$(LIBVMSIM_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

# Compiled tests under tests/sim/ link the simulator (tests/module.mk adds
# $(TEST_LIBS_<dir>) after libvmt).
TEST_LIBS_sim := $(LIBVMSIM) $(LIBSHARED) $(LIBVMT) $(LIBVMT_LIBS) -lm
$(patsubst tests/%_test.c,$(BUILD)/tests/%.t,$(wildcard tests/sim/*_test.c)): $(LIBVMSIM) $(LIBSHARED)
BENCH_SCRIPTS += $(wildcard tests/bench/sim-*.sh)
BENCH_BINS += $(BUILD)/tests/sim/bench.t

# The differential test's runner must have only the mappings of the calls it
# makes: never build it with sanitizers (their shadow memory and allocator
# mappings would be compared too).
$(OBJ)/tests/sim/progs/vma_runner.o: VMREC_CFLAGS := $(filter-out -fsanitize=% -fno-sanitize-recover=%,$(VMREC_CFLAGS))
$(BUILD)/tests/sim/progs/vma_runner: VMREC_LDFLAGS := $(filter-out -fsanitize=%,$(VMREC_LDFLAGS))

# make fuzz runs this target too: libFuzzer on the simulator
# (tests/sim/fuzz/fuzz_sim.c), from tests/sim/fuzz/corpus; new inputs collect
# in $(BUILD)/fuzz/sim-corpus (copy the interesting ones into the kept
# corpus, which tests/sim/fuzz_corpus_test.c replays in make check).
.PHONY: fuzz-sim
fuzz: fuzz-sim
fuzz-sim: $(BUILD)/fuzz/fuzz_sim
	@mkdir -p $(BUILD)/fuzz/sim-corpus
	$(BUILD)/fuzz/fuzz_sim -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=1024 \
	  -timeout=$(FUZZ_TIMEOUT) -artifact_prefix=$(BUILD)/fuzz/sim- $(BUILD)/fuzz/sim-corpus tests/sim/fuzz/corpus

$(BUILD)/fuzz/fuzz_sim: tests/sim/fuzz/fuzz_sim.c $(LIBVMSIM_SRCS) lib/outcome.c $(LIBVMT_SRCS) $(wildcard replay/sim/*.h replay/sim/*.def traces/*.h) $(OBJ)/replay/sim/calib_default.inc
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=gnu11 -g -O1 -D_GNU_SOURCE -I. -Itraces -I$(OBJ)/replay/sim \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  -o $@ tests/sim/fuzz/fuzz_sim.c $(LIBVMSIM_SRCS) lib/outcome.c $(LIBVMT_SRCS) $(LIBVMT_LIBS) -lpthread -lm

# the corpus test replays the harness's own source
$(OBJ)/tests/sim/fuzz_corpus_test.o: tests/sim/fuzz/fuzz_sim.c

# make selftests: the kernel's own mm selftests, built from Debian's
# linux-source packages, replayed on this kernel (and on real 6.1 and
# 6.12 under QEMU when the kernels are there) and in the simulator, event
# by event (tests/vm/selftests.t; make check runs it too).
.PHONY: selftests
selftests: all
	VMREC_BUILD=$(abspath $(BUILD)) VMREC_SRC=$(CURDIR) $(PROVE) --exec '' -v tests/vm/selftests.t

# make bench: the calibration's fit and fork with mTHP against the model
# (tests/bench/sim-calibration.sh; fork-mthp is the native side).
BENCH_BINS += $(BUILD)/bench/fork-mthp
$(BUILD)/bench/fork-mthp: $(call objs,tests/bench/fork-mthp.c)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(VMREC_LDFLAGS)
