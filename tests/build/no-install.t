#!/bin/sh
# VMREC_NO_INSTALL=1 installs and fetches nothing (chroot and distribution
# builds): mk/deps.sh names what is missing without calling apt-get, make
# check goes on without optional packages, the kernel fetch refuses, and
# the QEMU tests skip and say why.  Without it, root still installs (the
# control: a stand-in apt-get records that it was called).
. "$(dirname "$0")/../lib.sh"
unset MAKEFLAGS MFLAGS MAKELEVEL VMREC_NO_INSTALL
mkdir "$T/bin"
for tool in apt-get apt-cache; do
	printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 1\n' "$tool" "$T/calls" >"$T/bin/$tool"
	chmod +x "$T/bin/$tool"
done
# a package name Debian does not have
ABSENT=vmrec-test-no-such-package
calls() { if [ -f "$T/calls" ]; then wc -l <"$T/calls" | tr -d ' '; else echo 0; fi; }
run() { : >"$T/err"; env PATH="$T/bin:$PATH" "$@" >"$T/out" 2>"$T/err"; }

run VMREC_NO_INSTALL=1 sh "$S/mk/deps.sh" "$ABSENT"
is "$?:$(calls)" "1:0" "deps.sh: a missing package is an error, and apt-get is not called"
is "$(cat "$T/err")" "deps: VMREC_NO_INSTALL=1: not installing $ABSENT" "deps.sh: one line says why"
run VMREC_NO_INSTALL=1 sh "$S/mk/deps.sh" coreutils --optional "$ABSENT"
is "$?:$(calls)" "0:0" "deps.sh: a missing optional package is not an error"
grep -q "without $ABSENT, the tests that need them skip" "$T/err"
ok $? "deps.sh: and says its tests skip"

run VMREC_NO_INSTALL=1 make -s -C "$S" deps DEPS_PACKAGES=coreutils DEPS_OPTIONAL="$ABSENT"
is "$?:$(calls)" "0:0" "make deps (as make check runs it): goes on without an optional package"
run VMREC_NO_INSTALL=1 make -s -C "$S" deps DEPS_PACKAGES="$ABSENT" DEPS_OPTIONAL=
[ $? -ne 0 ] && [ "$(calls)" = 0 ]
ok $? "make deps: stops without a needed one"

run VMREC_NO_INSTALL=1 sh "$S/replay/vm/fetch-kernels.sh" "$T/store" 6.1
is "$?:$(calls)" "1:0" "fetch-kernels.sh: fetches nothing"
grep -q "VMREC_NO_INSTALL=1" "$T/err"; ok $? "fetch-kernels.sh: and says why: $(cat "$T/err")"
[ ! -e "$T/store" ]; ok $? "fetch-kernels.sh: creates no store"

# a QEMU test with an empty kernel store skips (vm-setup.sh)
if carries_sanitizer "$B/bin/vmreplay"; then
	skip "vm-setup.sh: a sanitized build has no guest programs"
else
	printf '. "%s/tests/lib.sh"\n. "%s/tests/vm/vm-setup.sh"\necho reached\n' "$S" "$S" >"$T/vm.t"
	mkdir "$T/empty"
	run VMREC_NO_INSTALL=1 VMREC_KERNELS="$T/empty" VMREC_SRC="$S" VMREC_BUILD="$B" sh "$T/vm.t"
	st=$?
	grep -q '^1\.\.0 # SKIP .*VMREC_NO_INSTALL=1' "$T/out" && [ "$st:$(calls)" = "0:0" ]
	ok $? "vm-setup.sh: skips, says why, calls no apt: $(cat "$T/out")"
fi

# the LKP test: with its packages missing, it skips, says why, installs nothing
# (a stand-in dpkg-query says no package is installed)
mkdir "$T/nopkgs"
cp "$T/bin/"* "$T/nopkgs/"
printf '#!/bin/sh\nexit 1\n' >"$T/nopkgs/dpkg-query"
chmod +x "$T/nopkgs/dpkg-query"
mkdir -p "$T/lkp-tests/sbin" "$T/lkp-tests/lib"
printf '#!/bin/sh\n' >"$T/lkp-tests/sbin/split-job"
chmod +x "$T/lkp-tests/sbin/split-job"
: >"$T/lkp-tests/lib/compare.rb"
: >"$T/err"
env PATH="$T/nopkgs:$PATH" VMREC_NO_INSTALL=1 LKP_SRC="$T/lkp-tests" VMREC_SRC="$S" VMREC_BUILD="$B" \
	sh "$S/tests/lkp/lkp.t" >"$T/out" 2>"$T/err"
st=$?
if carries_sanitizer "$B/bin/vmreplay"; then
	skip "tests/lkp/lkp.t: skips in a sanitized build before its packages"
else
	grep -q "^1\\.\\.0 # SKIP lkp-tests' packages: .*VMREC_NO_INSTALL=1: not installing ruby " "$T/out" && [ "$st:$(calls)" = "0:0" ]
	ok $? "tests/lkp/lkp.t: skips, says why, calls no apt: $(head -n 1 "$T/out")"
fi

# a test that fetches from an archive of its own passes under it too
VMREC_NO_INSTALL=1 VMREC_SRC="$S" VMREC_BUILD="$B" sh "$S/tests/build/install.t" >"$T/install.out" 2>&1
st=$?
ok $st "tests/build/install.t passes under VMREC_NO_INSTALL=1 (its archive is a local file://)"
[ $st -eq 0 ] || grep -A1 '^not ok' "$T/install.out" | head -n 6 | sed 's/^/# /'

# the control: root without VMREC_NO_INSTALL does call apt-get
if [ "$(id -u)" = 0 ]; then
	run sh "$S/mk/deps.sh" "$ABSENT"
	[ "$(calls)" -gt 0 ]; ok $? "as root, without VMREC_NO_INSTALL, deps.sh calls apt-get"
else
	run sh "$S/mk/deps.sh" "$ABSENT"
	grep -q "apt-get install $ABSENT" "$T/err"; ok $? "not root: deps.sh prints the apt-get line"
fi
done_testing
