#!/bin/sh
# make check builds the tree with gcc; this builds all of it again with
# clang - libraries, tools, test programs, benchmarks - where -Werror
# turns any warning into a failure.
. "$(dirname "$0")/../lib.sh"
command -v clang >/dev/null 2>&1 || skip_all "clang is not installed"

# a make of its own, not a child of the make that runs the tests (nor of
# make asan's: its SANITIZE reaches here through the environment)
unset MAKEFLAGS MFLAGS MAKELEVEL SANITIZE WERROR
make -s -j2 -C "$S" BUILD="$T/clang" CC=clang WERROR=1 programs >"$T/out" 2>&1
ok $? "clang builds every program with -Wall -Wextra -Werror"
is "$(grep -c 'warning:' "$T/out")" 0 "and prints no warning"
[ -x "$T/clang/bin/vmreplay" ] && [ -x "$T/clang/lib/libvmrec.so" ] && [ -x "$T/clang/tests/shim/tracecalls" ]
ok $? "the tools, the recorder and the test programs are there (the checks above can fail)"
done_testing
