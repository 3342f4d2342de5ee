# traces/: the trace format library (libvmt.a, linked into every tool and
# into libvmrec.so).

LIBVMT_SRCS := traces/vmt_check.c traces/vmt_chunks.c \
	traces/vmt_cursor.c traces/vmt_error.c traces/vmt_frames.c \
	traces/vmt_host.c traces/vmt_lz4frame.c traces/vmt_merge.c \
	traces/vmt_meta.c traces/vmt_order.c traces/vmt_output.c traces/vmt_reader.c traces/vmt_raw.c traces/vmt_reader_msg.c traces/vmt_residency.c \
	traces/vmt_scratch.c traces/vmt_space.c \
	traces/vmt_store.c traces/vmt_sys.c traces/vmt_writer.c \
	traces/vmt_xxh32.c
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

# make fuzz [FUZZ_SECONDS=N]: libFuzzer (clang, libclang-rt-14-dev) on the
# reader, starting from tests/trace/fuzz/corpus; new inputs collect in
# $(BUILD)/fuzz/corpus (copy the interesting ones into the test corpus).
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
# How long one input may run before libFuzzer calls it a hang (-timeout):
# a minute, not seconds.  The harnesses' inputs take milliseconds alone
# (the reader's slowest kept ones 20-87 ms under ASan), but on a shared,
# loaded 2-core machine ASan's allocator stalled single inputs past 5 s,
# and those "timeouts" were the load, not a hang.  A real hang (a loop
# that never ends) still exceeds any such bound and is still a finding.
FUZZ_TIMEOUT ?= 60
# (fuzz itself runs nothing: each harness is a fuzz-NAME of its own, so
# make -k fuzz runs the others after one finds something)
.PHONY: fuzz fuzz-reader
fuzz: fuzz-reader
fuzz-reader: $(BUILD)/fuzz/fuzz_reader
	@mkdir -p $(BUILD)/fuzz/corpus
	$(BUILD)/fuzz/fuzz_reader -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=1024 \
	  -timeout=$(FUZZ_TIMEOUT) -artifact_prefix=$(BUILD)/fuzz/ $(BUILD)/fuzz/corpus tests/trace/fuzz/corpus

$(BUILD)/fuzz/fuzz_reader: tests/trace/fuzz/fuzz_reader.c $(LIBVMT_SRCS) $(wildcard traces/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=gnu11 -g -O1 -D_GNU_SOURCE -I. -Itraces \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  -o $@ tests/trace/fuzz/fuzz_reader.c $(LIBVMT_SRCS) $(LIBVMT_LIBS)
