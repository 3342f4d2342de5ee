#!/bin/sh
# Warnings stop the build only when asked: a plain `make` with a compiler
# that warns (here: one that sees an unused variable in every file, as a
# newer compiler's new warning would) still builds; WERROR=1 fails on the
# warning; `make check` and `make asan` build with -Werror unless WERROR=0.
. "$(dirname "$0")/../lib.sh"
# a make of its own: make check's WERROR=1 reaches here through MAKEFLAGS
# and the environment
unset MAKEFLAGS MFLAGS MAKELEVEL SANITIZE WERROR
echo 'static int vmrec_test_unused;' >"$T/warn.h"
printf '#!/bin/sh\nexec %s -include %s "$@"\n' "${CC:-cc}" "$T/warn.h" >"$T/cc"
chmod +x "$T/cc"
OBJ=$T/b/obj/traces/vmt_error.o

make -s -C "$S" BUILD="$T/b" CC="$T/cc" "$OBJ" >"$T/out" 2>&1
ok $? "make: builds despite the warning"
grep -q 'warning: .*vmrec_test_unused' "$T/out"
ok $? "and shows it"
[ -f "$OBJ" ]; ok $? "the object is there"

rm -f "$OBJ"
make -s -C "$S" BUILD="$T/b" CC="$T/cc" WERROR=1 "$OBJ" >"$T/out" 2>&1
[ $? -ne 0 ] && [ ! -f "$OBJ" ]
ok $? "make WERROR=1: the warning is an error"

# what make check and make asan run (dry run: their sub-make prints its
# commands; -B: as if nothing were built, since make asan's build-asan/ may be)
for target in check asan; do
	make -n -B -C "$S" BUILD="$T/c" "$target" 2>&1 | grep ' -c traces/vmt_error\.c' >"$T/cmd"
	grep -q -- ' -Werror ' "$T/cmd"
	ok $? "make $target compiles with -Werror"
	make -n -B -C "$S" BUILD="$T/c" WERROR=0 "$target" 2>&1 | grep ' -c traces/vmt_error\.c' >"$T/cmd"
	[ -s "$T/cmd" ] && ! grep -q -- '-Werror' "$T/cmd"
	ok $? "make $target WERROR=0 does not"
done
done_testing
