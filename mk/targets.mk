# Top-level targets, after every module has added to:
#   BINS        programs under $(BUILD)/bin
#   LIBS        libraries under $(BUILD)/lib
#   TEST_BINS   compiled test programs (built before `make check` runs)
#   BENCH_SCRIPTS  scripts printing side-by-side ratios for `make bench`
#   MANPAGES    man pages under docs/man

MANPAGES := $(sort $(MANPAGES) $(wildcard docs/man/*.1))

.PHONY: all programs check test bench demo asan deps deps-extra install uninstall clean

all: $(LIBS) $(BINS)

# Everything that compiles: the tools, the test programs, the benchmarks
# (tests/build/clang.t builds this with clang).
programs: all $(TEST_BINS) $(BENCH_BINS)

PROVE ?= prove
PROVE_FLAGS ?=

# Tests are executables named *.t: shell scripts under tests/, compiled
# programs under $(BUILD)/tests.  VMREC_BUILD tells them where the build is.
# `make check` first installs what is missing (as root), then builds with
# -Werror (WERROR=1 unless given) and runs the tests in a second make, so
# nothing compiles before the packages are there.  `make test` skips the
# install step and builds as plain `make` does.
CHECK_WERROR = $(if $(WERROR),$(WERROR),1)

check: deps
	@$(MAKE) --no-print-directory WERROR=$(CHECK_WERROR) test

test: all $(TEST_BINS)
	VMREC_BUILD=$(abspath $(BUILD)) VMREC_SRC=$(CURDIR) \
	  $(PROVE) --exec '' $(PROVE_FLAGS) -r tests $(wildcard $(BUILD)/tests)

# The main job end to end: record real programs, synthesise the benchmark
# workloads, replay them here, in the simulator and in real older kernels,
# and write build/demo/report.html (mk/demo.sh says how).
demo: deps
	@$(MAKE) --no-print-directory all
	@VMREC_BUILD=$(abspath $(BUILD)) VMREC_SRC=$(CURDIR) sh mk/demo.sh

bench: all $(BENCH_BINS)
	@set -e; for s in $(BENCH_SCRIPTS); do \
	  VMREC_BUILD=$(abspath $(BUILD)) VMREC_SRC=$(CURDIR) $$s; done

asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan WERROR=$(CHECK_WERROR) \
	  SANITIZE='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' test

deps:
	@sh mk/deps.sh $(DEPS_PACKAGES) --optional $(DEPS_OPTIONAL)

deps-extra:
	@sh mk/deps.sh $(DEPS_EXTRA)

# One package list, for a test that installs what it needs itself
# (tests/lkp/): make -s deps-list-LKP
deps-list-%:
	@echo $(DEPS_$*)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)
	install -m 755 $(LIBS) $(DESTDIR)$(LIBDIR)
	$(if $(MANPAGES),install -m 644 $(MANPAGES) $(DESTDIR)$(MANDIR)/man1)

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(BINS)))
	rm -f $(addprefix $(DESTDIR)$(LIBDIR)/,$(notdir $(LIBS)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MANPAGES)))

clean:
	rm -rf build build-asan
