# Pattern rules: every .c (and .S) under the tree compiles to $(BUILD)/obj/<path>.o
# with dependency files, so modules only list sources.

OBJ := $(BUILD)/obj

$(OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(VMREC_CFLAGS) $(EXTRA_CFLAGS_$(dir $<)) -MMD -MP -c $< -o $@

# Assembly (.S, through the C preprocessor) the same way.
$(OBJ)/%.o: %.S
	@mkdir -p $(@D)
	$(CC) $(VMREC_CFLAGS) $(EXTRA_CFLAGS_$(dir $<)) -MMD -MP -c $< -o $@

# $(call objs,a.c b.S) -> their object files
objs = $(patsubst %.S,$(OBJ)/%.o,$(patsubst %.c,$(OBJ)/%.o,$(1)))

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# A tool's main built as <file>_main, for the fuzz harnesses and their
# corpus tests (tests/fuzz/fuzz.h): $(OBJ)/renamed/analysis/vmreport.o
# defines vmreport_main.
$(OBJ)/renamed/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(VMREC_CFLAGS) $(EXTRA_CFLAGS_$(dir $<)) -Dmain=$(notdir $*)_main -MMD -MP -c $< -o $@
