# replay/vm/: replay inside real kernels booted under QEMU (`vmreplay --vm`),
# and the kernel store of Debian's cloud kernels: `vmrec-kernels` (installed
# with the tools) and `make kernels` fill it.
#
# The guest runs two static programs from its initramfs: vmrec-vminit (its
# /init) and vmreplay-static (the same objects as vmreplay, linked
# -static-pie).
# vmreplay --vm finds both next to itself.

VMREPLAY_VM_SRCS := replay/vm/vm_cpio.c replay/vm/vm_frame.c replay/vm/vm_initramfs.c \
                    replay/vm/vm_kernels.c replay/vm/vm_main.c replay/vm/vm_qemu.c \
                    replay/vm/vm_results.c
VMREPLAY_VM_OBJS := $(call objs,$(VMREPLAY_VM_SRCS))
VM_GUEST_INIT    := $(BUILD)/bin/vmrec-vminit
VMREPLAY_STATIC  := $(BUILD)/bin/vmreplay-static
VM_FAKE_REPLAY   := $(BUILD)/tests/vm/fake-replay-static

# Sanitizers cannot link statically: a sanitized build has no guest programs
# and its VM tests skip.
ifeq ($(strip $(SANITIZE)),)
BINS      += $(VM_GUEST_INIT) $(VMREPLAY_STATIC)
TEST_BINS += $(VM_FAKE_REPLAY)
endif

# Releases `make kernels` fetches (prefixes of Debian's cloud kernel names),
# into the store build/bin/vmreplay reads.
VM_KERNEL_SERIES ?= 6.1 6.12
VM_KERNEL_STORE  := $(if $(VMREC_KERNELS),$(VMREC_KERNELS),$(BUILD)/kernels)
VM_KERNELS_TOOL  := $(BUILD)/bin/vmrec-kernels
BINS += $(VM_KERNELS_TOOL)

$(VM_KERNELS_TOOL): replay/vm/fetch-kernels.sh
	@mkdir -p $(@D)
	cp $< $@
	chmod 755 $@

$(VM_GUEST_INIT): $(call objs,replay/vm/guest/vminit.c replay/vm/vm_frame.c)
	@mkdir -p $(@D)
	$(CC) -static -o $@ $^ $(VMREC_LDFLAGS)

# Prerequisite: the dynamic vmreplay, so its objects are up to date; the
# recipe names them through variables that later modules define.  Static
# PIE: a non-PIE replayer sits at 0x400000, where non-PIE programs' own
# images were recorded (cc1), and could not place them.
$(VMREPLAY_STATIC): $(BUILD)/bin/vmreplay
	$(CC) -static-pie -o $@ $(call objs,$(VMREPLAY_SRCS)) $(VMREPLAY_VM_OBJS) \
	  $(LIBVMSIM) $(LIBSHARED) $(LIBVMT) $(LIBVMT_LIBS) $(JSON_LIBS) -ljemalloc \
	  -lpthread -lm -ldl $(VMREC_LDFLAGS)

# A stand-in replayer for the guest that tests use to check the boot and the
# transport without depending on vmreplay itself.
$(VM_FAKE_REPLAY): $(OBJ)/tests/vm/fake_replay.o
	@mkdir -p $(@D)
	$(CC) -static -o $@ $^ $(VMREC_LDFLAGS)

.PHONY: kernels
kernels:
	sh replay/vm/fetch-kernels.sh --store $(VM_KERNEL_STORE) $(VM_KERNEL_SERIES)

# Unit tests of this module link its objects.
VM_UNIT_TESTS := $(patsubst tests/vm/%_test.c,$(BUILD)/tests/vm/%.t,$(wildcard tests/vm/*_test.c))
TEST_LIBS_vm := $(VMREPLAY_VM_OBJS) $(LIBSHARED) $(LIBVMT) $(LIBVMT_LIBS) $(JSON_LIBS)
$(VM_UNIT_TESTS): $(VMREPLAY_VM_OBJS) $(LIBSHARED)

# Seeded operation sequences as traces, for the differential test.
VM_SEQGEN := $(BUILD)/tests/vm/vm-seqgen
TEST_BINS += $(VM_SEQGEN)
$(VM_SEQGEN): $(OBJ)/tests/vm/seqgen.o $(LIBVMT)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LIBVMT_LIBS) $(VMREC_LDFLAGS)

BENCH_SCRIPTS += tests/bench/vm-boot.sh
BENCH_BINS    += $(BUILD)/bin/vmreplay $(VMREPLAY_STATIC) $(VM_GUEST_INIT) $(VM_SEQGEN)
