# replay/: vmreplay, its driver and its back ends (docs/replay.md); links
# the simulator (replay/sim/) and the QEMU back end (replay/vm/).

VMREPLAY_SRCS := replay/addrmap.c replay/apply.c replay/apply_mem.c replay/backend_kernel.c replay/backend_sim.c \
                 replay/blame.c replay/calibrate.c replay/deps.c replay/engine.c replay/fidelity.c replay/files.c \
                 replay/image.c replay/ipc.c replay/jemalloc_conf.c replay/latency.c replay/membudget.c \
                 replay/options.c replay/placement.c replay/results.c replay/say.c replay/set_break.c \
                 replay/spill.c replay/standin.c replay/trace.c replay/vmaquery.c replay/vmreplay.c
BINS += $(BUILD)/bin/vmreplay

$(BUILD)/bin/vmreplay: $(call objs,$(VMREPLAY_SRCS)) $(VMREPLAY_VM_OBJS) $(LIBVMSIM) $(LIBSHARED) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LIBVMT_LIBS) $(JSON_LIBS) -ljemalloc -lpthread -lm $(VMREC_LDFLAGS)

# tests/replay/progs/mktrace writes traces from a line script: it needs the
# trace library.
$(BUILD)/tests/replay/progs/mktrace: TEST_PROG_LIBS += $(LIBVMT) $(LIBVMT_LIBS)
$(BUILD)/tests/replay/progs/mktrace: $(LIBVMT)
$(BUILD)/tests/replay/progs/brk_loop: TEST_PROG_LIBS += $(LIBVMT) $(LIBVMT_LIBS)
$(BUILD)/tests/replay/progs/brk_loop: $(LIBVMT)

# Compiled tests of replay/ link the parts they test.
TEST_LIBS_replay := $(call objs,replay/addrmap.c replay/latency.c) -lm
$(BUILD)/tests/replay/addrmap.t $(BUILD)/tests/replay/latency.t: $(call objs,replay/addrmap.c replay/latency.c)
$(BUILD)/tests/replay/threads_deps.t: $(call objs,replay/deps.c replay/spill.c replay/trace.c)
$(BUILD)/tests/replay/threads_deps.t: TEST_LIBS_replay += $(call objs,replay/deps.c replay/spill.c replay/trace.c) $(LIBVMT) $(LIBVMT_LIBS)
# (it compiles deps.c and spill.c itself, with every array spilled)
$(BUILD)/tests/replay/threads_deps_spill.t: $(call objs,replay/trace.c)
$(BUILD)/tests/replay/threads_deps_spill.t: TEST_LIBS_replay += $(call objs,replay/trace.c) $(LIBVMT) $(LIBVMT_LIBS)
$(OBJ)/tests/replay/threads_deps_spill_test.o: replay/deps.c replay/spill.c

BENCH_SCRIPTS += tests/bench/replay-brk.sh tests/bench/replay-memory.sh
BENCH_BINS    += $(BUILD)/bin/vmreplay $(BUILD)/tests/replay/progs/brk_loop
MANPAGES      += docs/man/vmreplay.1
