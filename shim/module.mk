# shim/: libvmrec.so (the preload recorder) and the vmrec launcher.
# Only what the program may call is exported (vmrec_checkpoint); the hooks
# and the recorder's state are hidden so nothing in the program binds to them.

# capture.c is shared with the launcher (both recorders build records with it)
SHIM_CAPTURE_SRCS := shim/capture.c
SHIM_LIB_SRCS := shim/arena.c $(SHIM_CAPTURE_SRCS) shim/empty_ranges.c shim/exec.c \
	shim/exec_args.c shim/exec_env.c shim/forkgate.c shim/hooks_mem.c shim/hooks_proc.c \
	shim/image.c shim/init.c shim/maps.c shim/neighbours.c shim/patch.c shim/record.c \
	shim/residency.c shim/signals.c shim/sites.c shim/stacks.c \
	shim/stackset.c shim/sud.c shim/sigsys.c shim/state.c shim/env_self.c \
	shim/highfd.c shim/tramp.c shim/umem.c shim/arch_x86_64.S
# -fdata-sections: a section per variable, for libvmrec-data.ld's order
# (the objects are rebuilt when these flags change)
EXTRA_CFLAGS_shim/ := -fvisibility=hidden -fdata-sections
$(call objs,$(SHIM_LIB_SRCS) shim/vmrec.c shim/launch_trace.c shim/launch_filter.c): shim/module.mk

LIBS += $(BUILD)/lib/libvmrec.so
BINS += $(BUILD)/bin/vmrec

# The library is preloaded into programs that are not built with sanitizers,
# so it never is: under SANITIZE (make asan) it gets its own plain copies of
# the trace library's objects.
ifeq ($(SANITIZE),)
SHIM_VMT := $(LIBVMT)
else
SHIM_VMT := $(patsubst traces/%.c,$(OBJ)/shim-plain/traces/%.o,$(LIBVMT_SRCS))
EXTRA_CFLAGS_shim/ += -fno-sanitize=all
$(OBJ)/shim-plain/traces/%.o: traces/%.c
	@mkdir -p $(@D)
	$(CC) $(VMREC_CFLAGS) -fno-sanitize=all -MMD -MP -c $< -o $@
endif

# The library runs inside the program it records: a libc mmap would be
# recorded as the program's (or re-enter our hooks), a malloc would change
# the program's heap.  So no object of shim/ in it may refer to libc's
# VMA or allocation functions (system calls go through raw.h, memory
# comes from arena.h); the link fails naming them, as rr's preload makes
# them compile errors (its X-macro table and vmt.h's fields use the same
# names, which rules out #pragma poison here).  tests/build/shim-symbols.t
# limits what the linked library imports.
SHIM_NOT_LIBC := mmap mmap64 munmap mprotect pkey_mprotect madvise posix_madvise \
	mremap brk sbrk mlock mlock2 munlock mlockall munlockall shmat shmdt \
	remap_file_pages process_madvise malloc calloc realloc reallocarray free \
	aligned_alloc posix_memalign memalign valloc strdup strndup fopen fdopen

# lz4 is linked in (Debian's liblz4.a is position-independent): ld.so
# then loads one library for the recorder, not two, in every image
# (under the launcher each of their mmaps is a ptrace stop), and the
# program's own liblz4, if it has one, is its own.  -z now binds every
# import as it loads: a lazy first call runs ld.so's resolver, which saves
# the whole vector state on the stack it is on, a signal handler's 8 KiB
# sigaltstack too (tests/shim/small-stacks.t).  -z noseparate-code: two
# PT_LOADs (text with its read-only data, then data), not four, so ld.so
# maps it with two calls fewer in every image, each a launcher stop.
# shim/libvmrec-data.ld puts its .bss in the file: no anonymous mapping
# after its data, one call (and one VMA) fewer again; it INCLUDEs
# libvmrec-order.ld, the variables in order of size (shim/data-order.sh),
# and after the small ones the buffers every process writes at start-up
# (a page or more each; perf trace -F all shows the faults; a name not
# found is left where its size puts it; tests/shim/startup-pages.t; a
# function's static is NAME.N under gcc, FUNCTION.NAME under clang).
SHIM_HOT_DATA := app lib_path buf.1 patch_sites.buf shim saved_buf threads
$(OBJ)/shim/libvmrec-order.ld: $(call objs,$(SHIM_LIB_SRCS)) $(SHIM_VMT) shim/data-order.sh shim/module.mk
	@mkdir -p $(@D)
	sh shim/data-order.sh -h "$(SHIM_HOT_DATA)" $(call objs,$(SHIM_LIB_SRCS)) $(SHIM_VMT) >$@.tmp && mv $@.tmp $@
$(BUILD)/lib/libvmrec.so: $(call objs,$(SHIM_LIB_SRCS)) $(SHIM_VMT) shim/libvmrec-data.ld $(OBJ)/shim/libvmrec-order.ld
	@mkdir -p $(@D)
	@bad=$$(nm -u $(call objs,$(SHIM_LIB_SRCS)) | awk 'NF == 2 { print $$2 }' | \
	  grep -xE "$$(echo $(SHIM_NOT_LIBC) | tr ' ' '|')" | sort -u | tr '\n' ' '); \
	[ -z "$$bad" ] || { echo "libvmrec.so: shim/ calls libc's $$bad(raw.h, arena.h instead)" >&2; exit 1; }
	$(CC) -shared -Wl,-z,defs -Wl,-z,now -Wl,-z,noseparate-code -Wl,--exclude-libs,ALL \
	  -Wl,-L,$(OBJ)/shim -Wl,-T,shim/libvmrec-data.ld -o $@ $(call objs,$(SHIM_LIB_SRCS)) \
	  $(SHIM_VMT) -l:liblz4.a $(LDFLAGS)

# The launcher is linked -static-pie: every recording starts it, and
# ld.so loading its libraries cost each one about a millisecond.
# Sanitizers cannot link statically: under SANITIZE it stays dynamic.
VMREC_LAUNCHER_LINK := $(if $(strip $(SANITIZE)),,-static-pie)
$(BUILD)/bin/vmrec: $(call objs,shim/vmrec.c shim/launch_trace.c shim/launch_filter.c $(SHIM_CAPTURE_SRCS)) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) $(VMREC_LAUNCHER_LINK) -o $@ $^ $(LIBVMT_LIBS) $(VMREC_LDFLAGS)

# capture.c's own test links it.
$(BUILD)/tests/shim/capture.t: $(call objs,$(SHIM_CAPTURE_SRCS))
$(BUILD)/tests/shim/capture.t: TEST_LIBS_shim += $(call objs,$(SHIM_CAPTURE_SRCS))

# The shim tests read traces back with this small dumper (tests/shim/).
TEST_BINS += $(BUILD)/tests/shim/tracecalls
$(BUILD)/tests/shim/tracecalls: $(call objs,tests/shim/tracecalls.c) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LIBVMT_LIBS) $(VMREC_LDFLAGS)

# A statically linked program for the "not recorded, not harmed" test.
TEST_BINS += $(BUILD)/tests/shim/static_hello
$(BUILD)/tests/shim/static_hello: tests/shim/static/static_hello.c
	@mkdir -p $(@D)
	$(CC) -static -O2 -o $@ $< || $(CC) -O2 -o $@ $<

# A static program whose threads map until exit_group ends them: the
# launcher alone records them (tests/shim/launcher-exit-threads.t).
TEST_BINS += $(BUILD)/tests/shim/static_threads
$(BUILD)/tests/shim/static_threads: tests/shim/static/static_threads.c
	@mkdir -p $(@D)
	$(CC) -static -O2 -pthread -o $@ $< || $(CC) -O2 -pthread -o $@ $<

# A static program whose ioctl and prctl calls the launcher's filter
# tells apart (tests/shim/launcher-stops.t).
TEST_BINS += $(BUILD)/tests/shim/static_ctl
$(BUILD)/tests/shim/static_ctl: tests/shim/static/static_ctl.c
	@mkdir -p $(@D)
	$(CC) -static -O2 -o $@ $< || $(CC) -O2 -o $@ $<

# A static program whose calls keep their ranges in memory: the
# launcher's RANGES records (tests/shim/launcher-ranges.t).
TEST_BINS += $(BUILD)/tests/shim/static_ranges
$(BUILD)/tests/shim/static_ranges: tests/shim/static/static_ranges.c
	@mkdir -p $(@D)
	$(CC) -static -O2 -o $@ $< || $(CC) -O2 -o $@ $<

# A static program whose second thread execs: the launcher's exec of a
# thread (tests/shim/launcher-threads.t).
TEST_BINS += $(BUILD)/tests/shim/static_thread_exec
$(BUILD)/tests/shim/static_thread_exec: tests/shim/static/static_thread_exec.c
	@mkdir -p $(@D)
	$(CC) -static -O2 -o $@ $< -lpthread || $(CC) -O2 -o $@ $< -lpthread

# A static program attaching a SysV segment: the launcher's FILE record
# for shmat (tests/shim/shm-file.t).
TEST_BINS += $(BUILD)/tests/shim/static_shm
$(BUILD)/tests/shim/static_shm: tests/shim/static/static_shm.c
	@mkdir -p $(@D)
	$(CC) -static -O2 -o $@ $< || $(CC) -O2 -o $@ $<

# exec_argv linked statically: the launcher records its execs (FILE and
# ARGV, tests/shim/exec-argv.t).
TEST_BINS += $(BUILD)/tests/shim/static_exec_argv
$(BUILD)/tests/shim/static_exec_argv: tests/shim/progs/exec_argv.c
	@mkdir -p $(@D)
	$(CC) $(VMREC_CFLAGS) -static -o $@ $< || $(CC) $(VMREC_CFLAGS) -o $@ $<

# A program whose library's constructor maps memory before libvmrec's
# runs (tests/shim/from-execve.t).
TEST_BINS += $(BUILD)/tests/shim/libctor_maps.so $(BUILD)/tests/shim/ctor_maps
$(BUILD)/tests/shim/libctor_maps.so: tests/shim/ctor/ctor_maps_lib.c
	@mkdir -p $(@D)
	$(CC) $(VMREC_CFLAGS) -shared -fPIC -o $@ $<
$(BUILD)/tests/shim/ctor_maps: tests/shim/ctor/ctor_maps.c $(BUILD)/tests/shim/libctor_maps.so
	@mkdir -p $(@D)
	$(CC) $(VMREC_CFLAGS) -o $@ $< -L$(BUILD)/tests/shim -lctor_maps -Wl,-rpath,'$$ORIGIN'

# make bench: tests/bench/shim-overhead.sh and its loops.
BENCH_SCRIPTS += tests/bench/shim-overhead.sh
BENCH_BINS += $(BUILD)/bench/shim-page_test $(BUILD)/bench/shim-thread_churn $(BUILD)/bench/shim-loops \
              $(BUILD)/bench/shim-runcpu $(BUILD)/bench/shim-bare_launcher
$(BUILD)/bench/shim-%: $(call objs,tests/bench/shim-%.c)
	@mkdir -p $(@D)
	$(CC) -o $@ $< -lpthread $(VMREC_LDFLAGS)
# linked as the launcher is: the start-up rows' floor
$(BUILD)/bench/shim-bare_launcher: $(call objs,tests/bench/shim-bare_launcher.c)
	@mkdir -p $(@D)
	$(CC) $(VMREC_LAUNCHER_LINK) -o $@ $< $(VMREC_LDFLAGS)
# the loops' launcher floor installs the launcher's own filter
$(BUILD)/bench/shim-loops: $(call objs,tests/bench/shim-loops.c shim/launch_filter.c) $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ -lpthread $(LIBVMT_LIBS) $(VMREC_LDFLAGS)

MANPAGES += docs/man/vmrec.1
