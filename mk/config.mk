# Build configuration shared by every module.

BUILD     ?= build
PREFIX    ?= /usr/local
DESTDIR   ?=
BINDIR    := $(PREFIX)/bin
LIBDIR    := $(PREFIX)/lib
MANDIR    := $(PREFIX)/share/man

CC        ?= cc
AR        ?= ar
CFLAGS    ?= -O2 -g
LDFLAGS   ?=
SANITIZE  ?=
# WERROR=1 makes every warning an error.  Off for a plain `make`, so a
# newer compiler's new warnings do not stop a user's or a packager's build;
# `make check` and `make asan` turn it on (WERROR=0 turns it off there).
WERROR    ?=

# -fPIC everywhere: the same trace-library objects go into libvmrec.so.
VMREC_CFLAGS := -std=gnu11 -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) \
                -fPIC -D_GNU_SOURCE -I. -Itraces $(CFLAGS) $(SANITIZE)
VMREC_LDFLAGS := $(LDFLAGS) $(SANITIZE)

# Debian packages (mk/deps.sh; `make deps` installs the first two lists).
# Needed to build and test: make check stops without them.  Optional: the
# tests that use them skip and say why (fzf: a Debian Go binary the
# launcher's tests record).  Extra: heavy, installed by the
# tests that need them (as root; `make deps-extra`).  VMREC_NO_INSTALL=1
# installs nothing anywhere (chroot and distribution builds).
# DEPS_BUILD is what building alone needs (lkp/'s pkg/depends-dev lists it).
# DEPS_LKP: what tests/lkp/ needs to run lkp-tests offline (Debian's ruby
# gems instead of rubygems, fakeroot and gettext for its makepkg).
DEPS_BUILD    := gcc libc6-dev make binutils liblz4-dev libunwind-dev \
                 libjemalloc-dev libdw-dev libelf-dev libjansson-dev
DEPS_PACKAGES := $(DEPS_BUILD) perl lz4 python3
DEPS_OPTIONAL := clang strace fzf
DEPS_LKP      := ruby ruby-tty-command ruby-colorize ruby-git ruby-gnuplot \
                 ruby-term-ansicolor ruby-activesupport fakeroot gettext-base
DEPS_EXTRA    := qemu-system-x86 chromium $(DEPS_LKP)
