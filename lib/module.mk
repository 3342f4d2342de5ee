# lib/: what several tools share, as one static library (libvmshared.a):
# the strace-style formatter (vmtrace, vmreplay), pid/id and stack maps
# and the symboliser (vmtrace, vmreport), the merge outcomes (the
# replayer's kernel back end and the simulator), whether a replay ran on
# the recording's kernel (vmreplay, vmreport), and the results-file
# reader and writer (vmreport, vmtrace top, vmreplay --vm).  Tools link it and take
# only the objects they use; the symboliser's users add SYMBOLIZE_LIBS.

LIBSHARED_SRCS := lib/sysfmt.c lib/sysfmt_parse.c lib/sysfmt_tables.c \
                  lib/pid_id_map.c lib/stack_map.c \
                  lib/symbolize.c lib/symbolize_cache.c lib/symbolize_elf.c lib/symbolize_table.c \
                  lib/errmsg.c lib/outcome.c lib/input.c lib/json.c lib/json_write.c lib/kernel_match.c lib/output.c
LIBSHARED      := $(BUILD)/lib/libvmshared.a
SYMBOLIZE_LIBS := -ldw -lelf
# jansson reads results files (docs/json.md); lib/json.c's users add it.
JSON_LIBS      := -ljansson

$(LIBSHARED): $(call objs,$(LIBSHARED_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^
