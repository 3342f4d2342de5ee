#!/bin/sh
# vmrec-kernels [--store DIR] [SERIES...] - fetch Debian's cloud kernels
# into the kernel store that `vmreplay --vm` reads: for each series (6.1,
# 6.12, ...; default 6.1 6.12) the newest linux-image-SERIES.*-cloud-amd64
# package in the apt lists (an exact release such as 6.1.0-57-cloud-amd64
# names its own package) goes to STORE/<release>/vmlinuz and config.
# The store is --store, else $VMREC_KERNELS, else kernels/ beside the
# directory this command is in - the rule vmreplay follows, so an
# installed vmrec-kernels fills the installed vmreplay's store.
# Debian's archive is the only source: `apt-get download` checks the
# package against the SHA256 sum in the archive's signed index, then
# dpkg-deb unpacks it.  A release already in the store is not fetched
# again.  VMREC_NO_INSTALL=1 fetches nothing: a series with a release in
# the store is fine, one without is an error.
# Installed as vmrec-kernels; `make kernels` runs it from the source tree
# (also as `fetch-kernels.sh STORE SERIES...`, the store first).
set -e
me=vmrec-kernels
usage() {
	echo "usage: $me [--store DIR] [SERIES...]   (default: 6.1 6.12; see vmrec-kernels(1))"
}
store=
case $1 in
-h|--help) usage; exit 0 ;;
--store) [ $# -ge 2 ] || { usage >&2; exit 2; }; store=$2; shift 2 ;;
--store=*) store=${1#--store=}; shift ;;
-*) echo "$me: unknown option $1" >&2; usage >&2; exit 2 ;;
*/*) store=$1; shift ;;
esac
for a; do
	case $a in -*|*/*|'') echo "$me: '$a' is not a kernel series" >&2; usage >&2; exit 2 ;; esac
done
[ $# -gt 0 ] || set -- 6.1 6.12
if [ -z "$store" ]; then
	if [ -n "$VMREC_KERNELS" ]; then
		store=$VMREC_KERNELS
	elif [ "$(basename "$0")" = vmrec-kernels ]; then
		here=$(dirname "$(readlink -f "$0")")
		store=$(dirname "$here")/kernels
	else
		echo "$me: run from the source tree: give --store DIR (make kernels does)" >&2
		exit 2
	fi
fi

# the newest release of a series in the store, as vmreplay --vm picks it
in_store() {
	re=$(printf '%s' "$1" | sed 's/\./\\./g')
	ls "$store" 2>/dev/null | grep -E "^$re([.+-]|\$)" | sort -V |
		while read -r r; do [ -f "$store/$r/vmlinuz" ] && echo "$r"; done | tail -n 1
}

case ${VMREC_NO_INSTALL:-0} in
0) ;;
*)	for series; do
		release=$(in_store "$series")
		if [ -z "$release" ]; then
			echo "$me: no $series kernel in $store, and VMREC_NO_INSTALL=$VMREC_NO_INSTALL: fetching nothing" >&2
			exit 1
		fi
		echo "$me: $series -> $release (already in $store)"
	done
	exit 0 ;;
esac
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	{ echo "$me: apt-get and dpkg-deb not found (Debian's archive is the only source)" >&2; exit 1; }
if ! mkdir -p "$store" 2>/dev/null || [ ! -w "$store" ]; then
	echo "$me: cannot write the kernel store $store (run as its owner, or set VMREC_KERNELS=DIR for this command and vmreplay)" >&2
	exit 1
fi

if [ "$(id -u)" = 0 ] && [ -z "$VMREC_NO_APT_UPDATE" ]; then
	apt-get -o DPkg::Lock::Timeout=900 update -qq >/dev/null 2>&1 ||
		echo "$me: apt-get update failed; using the package lists as they are" >&2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/vmrec-kernels.XXXXXX")
trap 'rm -rf "$work"' EXIT
# apt drops privileges to _apt for downloads; let it write there.
id _apt >/dev/null 2>&1 && chown _apt "$work" 2>/dev/null || true

for series; do
	re=$(printf '%s' "$series" | sed 's/\./\\./g')
	case $series in
	*-cloud-amd64) pattern="^linux-image-$re\$" ;;
	*) pattern="^linux-image-$re[.-][0-9].*-cloud-amd64\$" ;;
	esac
	pkg=$(apt-cache search --names-only "$pattern" | awk '{print $1}' | sort -V | tail -n 1)
	if [ -z "$pkg" ]; then
		echo "$me: no Debian package linux-image-$series.*-cloud-amd64 in the package lists" >&2
		exit 1
	fi
	release=${pkg#linux-image-}
	if [ -f "$store/$release/vmlinuz" ]; then
		echo "$me: $series -> $release (already in $store)"
		continue
	fi
	if ! (cd "$work" && apt-get -o DPkg::Lock::Timeout=900 download -q "$pkg" >"$work/log" 2>&1); then
		why=$(grep '^E: ' "$work/log" | head -n 1)
		echo "$me: apt-get download $pkg failed: ${why:-$(tail -n 1 "$work/log")}" >&2
		exit 1
	fi
	mkdir -p "$work/x"
	dpkg-deb --fsys-tarfile "$work"/"$pkg"_*.deb |
		tar -x -C "$work/x" "./boot/vmlinuz-$release" "./boot/config-$release" ||
		{ echo "$me: $pkg holds no boot/vmlinuz-$release" >&2; exit 1; }
	# into place whole or not at all: vmreplay looks for the vmlinuz.
	# Another fetch into this store may be doing the same: each moves
	# its own copies, by rename, so either's is whole
	mkdir -p "$store/$release"
	mv "$work/x/boot/config-$release" "$store/$release/config.part.$$"
	mv "$store/$release/config.part.$$" "$store/$release/config"
	mv "$work/x/boot/vmlinuz-$release" "$store/$release/vmlinuz.part.$$"
	mv "$store/$release/vmlinuz.part.$$" "$store/$release/vmlinuz"
	rm -rf "$work/x" "$work"/*.deb
	echo "$me: $series -> $release ($store/$release/vmlinuz)"
done
