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
