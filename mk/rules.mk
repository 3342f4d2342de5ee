# Pattern rules: every .c under the tree compiles to $(BUILD)/obj/<path>.o
# with dependency files, so modules only list sources.

OBJ := $(BUILD)/obj

$(OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(VMREC_CFLAGS) $(EXTRA_CFLAGS_$(dir $<)) -MMD -MP -c $< -o $@

# $(call objs,a.c b.c) -> their object files
objs = $(patsubst %.c,$(OBJ)/%.o,$(1))

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
