# traces/: the trace format library (libvmt.a, linked into every tool and
# into libvmrec.so) and the workload synthesizers.

LIBVMT_SRCS := $(wildcard traces/*.c)
LIBVMT      := $(BUILD)/lib/libvmt.a
LIBVMT_LIBS := -llz4

$(LIBVMT): $(call objs,$(LIBVMT_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

TEST_LIBS_trace := -lpthread

# Helper programs of the trace tests link the library.
$(BUILD)/tests/trace/progs/%: TEST_PROG_LIBS = $(LIBVMT) $(LIBVMT_LIBS)
$(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/trace/progs/*.c)): $(LIBVMT)

# make bench: bytes per event and reading speed (tests/bench/trace-bench.c).
BENCH_BINS    += $(BUILD)/bench/trace-bench
BENCH_SCRIPTS += tests/bench/trace-bench.sh

$(BUILD)/bench/trace-bench: $(call objs,tests/bench/trace-bench.c) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LIBVMT_LIBS) $(VMREC_LDFLAGS)
