#!/bin/sh
# make asan builds every program with the sanitizers, vmrec included: the
# launcher links the sanitized trace library, so it must link with the
# sanitizer runtime too (the recorder library, preloaded into programs
# that are not sanitized, never is).  Built here on its own, quickly: the
# launcher and the recorder with make asan's SANITIZE, then a recording.
. "$(dirname "$0")/../lib.sh"
need_built "$B/bin/vmtrace"
# a make of its own: make check's flags reach here through the environment
unset MAKEFLAGS MFLAGS MAKELEVEL SANITIZE WERROR
A=$T/asan
make -s -j2 -C "$S" BUILD="$A" \
	SANITIZE='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' \
	"$A/bin/vmrec" "$A/lib/libvmrec.so" >"$T/out" 2>&1
st=$?
ok $st "vmrec and libvmrec.so build and link under make asan's SANITIZE"
[ $st -eq 0 ] || sed 's/^/# /' "$T/out" | tail -n 5
carries_asan "$A/bin/vmrec"
ok $? "the launcher carries ASan"
! carries_sanitizer "$A/lib/libvmrec.so"
ok $? "the recorder library does not"
ASAN_OPTIONS=detect_leaks=0 "$A/bin/vmrec" -o "$T/t.lz4" -- /bin/true
ok $? "the sanitized launcher records a program"
case $("$B/bin/vmtrace" check "$T/t.lz4") in
*": OK: "*) ok 0 "and its trace checks OK" ;;
*) ok 1 "and its trace checks OK" ;;
esac
done_testing
