#!/bin/sh
# selftests-build.sh RELEASE OUTDIR NAME... - build the kernel's own mm
# selftests NAME... of RELEASE (6.1, 6.12, 7.2) from Debian's
# linux-source-RELEASE package, the only source: nothing of them is kept in
# this tree.  tests/vm/selftests-fetch.sh finds the package's tarball (6.1
# and 6.12 installed from bookworm when missing, as root; a newer one
# fetched from unstable into OUTDIR/apt).  Binaries go to OUTDIR/bin, kept
# until the package's version changes; the unpacked source is removed
# again.
# Prints one line per selftest: "built NAME" or "cannot build NAME: why".
# Exit status 0 when the source could be had, 1 when not (the reason on
# stderr).
set -u
rel=$1 out=$2
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
shift 2
src=${VMREC_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
pkg=linux-source-$rel
tarball=$(sh "$src/tests/vm/selftests-fetch.sh" "$rel" "$out/apt") || exit 1
case $tarball in
/usr/src/*) version=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || echo unknown) ;;
*) version=$(basename "$(dirname "$(dirname "$(dirname "$tarball")")")") ;;   # apt/deb/VERSION/usr/src
esac
mkdir -p "$out/bin"
if [ "$(cat "$out/version" 2>/dev/null)" != "$version" ]; then
	rm -f "$out"/bin/*
	echo "$version" >"$out/version"
fi

need=
for n in "$@"; do [ -x "$out/bin/$n" ] || need="$need $n"; done
if [ -n "$need" ]; then
	# the uapi headers the selftests are built against (make headers needs
	# the top Makefile, scripts/ and include/ plus the arch), the selftests
	# (tools/testing/selftests/mm, vm before 6.3) and tools/include
	tree=$out/src
	rm -rf "$tree"
	mkdir -p "$tree"
	top=linux-source-$rel
	tar -xJf "$tarball" -C "$tree" --wildcards "$top/Makefile" "$top/Kbuild" "$top/Kconfig" \
		"$top/scripts/*" "$top/include/*" "$top/arch/x86/*" "$top/arch/Kconfig" "$top/tools/*" "$top/usr/*" \
		"$top/mm/gup_test.h" >"$out/extract.log" 2>&1 ||
		{ echo "cannot unpack $tarball: $(tail -n 1 "$out/extract.log")" >&2; exit 1; }
	k=$tree/$top
	make -C "$k" -j2 headers >"$out/headers.log" 2>&1 ||
		{ echo "make headers in $pkg failed: $(tail -n 1 "$out/headers.log")" >&2; exit 1; }
	d=$k/tools/testing/selftests/mm
	[ -d "$d" ] || d=$k/tools/testing/selftests/vm
	# what every selftest links (thp_settings.c became hugepage_settings.c)
	common=
	for f in vm_util.c thp_settings.c hugepage_settings.c; do [ -f "$d/$f" ] && common="$common $f"; done
	for n in $need; do
		# as the selftests' own Makefile builds them (CFLAGS, LDLIBS; the
		# newer ones include kselftest.h as tools/testing/selftests has it)
		extra=$common
		case $n in uffd-*) [ -f "$d/uffd-common.c" ] && extra="$extra uffd-common.c" ;; esac
		# shellcheck disable=SC2086
		(cd "$d" && cc -Wall -O2 -I "$k" -I "$k/tools/testing/selftests" -isystem "$k/usr/include" \
			-I "$k/tools/include" -U_FORTIFY_SOURCE -o "$out/bin/$n" "$n.c" $extra -lrt -lpthread -lm) \
			>"$out/$n.build.log" 2>&1 || rm -f "$out/bin/$n"
	done
	rm -rf "$tree"
fi
for n in "$@"; do
	if [ -x "$out/bin/$n" ]; then
		echo "built $n"
	else
		echo "cannot build $n: $(grep -m 1 -E 'error|not found' "$out/$n.build.log" 2>/dev/null || echo 'no source in this release')"
	fi
done
