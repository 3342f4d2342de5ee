# traces/: the trace format library (libvmt.a, linked into every tool and
# into libvmrec.so) and the workload synthesizers.

LIBVMT_SRCS := $(wildcard traces/*.c)
LIBVMT      := $(BUILD)/lib/libvmt.a
LIBVMT_LIBS := -llz4

$(LIBVMT): $(call objs,$(LIBVMT_SRCS))
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^
