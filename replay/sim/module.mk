# replay/sim/: the simulator of the kernel's VMA layer (libvmsim.a), linked
# into vmreplay for --target sim.

# replay/outcome.c, the outcome definition both back ends share, lives here
# so that tests linking only the simulator have it too.
LIBVMSIM_SRCS := $(wildcard replay/sim/*.c) replay/outcome.c
LIBVMSIM      := $(BUILD)/lib/libvmsim.a

$(LIBVMSIM): $(call objs,$(LIBVMSIM_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

# Compiled tests under tests/sim/ link the simulator (tests/module.mk adds
# $(TEST_LIBS_<dir>) after libvmt).
TEST_LIBS_sim := $(LIBVMSIM) $(LIBVMT) $(LIBVMT_LIBS) -lm
$(patsubst tests/%_test.c,$(BUILD)/tests/%.t,$(wildcard tests/sim/*_test.c)): $(LIBVMSIM)
BENCH_SCRIPTS += $(wildcard tests/bench/sim-*.sh)
BENCH_BINS += $(BUILD)/tests/sim/bench.t

# The differential test's runner must have only the mappings of the calls it
# makes: never build it with sanitizers (their shadow memory and allocator
# mappings would be compared too).
$(OBJ)/tests/sim/progs/vma_runner.o: VMREC_CFLAGS := $(filter-out -fsanitize=% -fno-sanitize-recover=%,$(VMREC_CFLAGS))
$(BUILD)/tests/sim/progs/vma_runner: VMREC_LDFLAGS := $(filter-out -fsanitize=%,$(VMREC_LDFLAGS))
