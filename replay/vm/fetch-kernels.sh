#!/bin/sh
# fetch-kernels.sh STORE SERIES... - `make kernels`: put the newest Debian
# cloud kernel of each series (6.1, 6.12, ...) into STORE/<release>/vmlinuz.
# Debian's archive is the only source: apt-get download, then dpkg-deb.
# A release already in the store is not fetched again.  VMREC_NO_INSTALL=1
# fetches nothing: a series with a release in the store is fine, one
# without is an error.
set -e
store=$1
shift
[ -n "$store" ] && [ $# -gt 0 ] || { echo "usage: $0 STORE SERIES..." >&2; exit 2; }
case ${VMREC_NO_INSTALL:-0} in
0) ;;
*)	# the newest release of the series in the store, as vmreplay --vm picks it
	for series in "$@"; do
		re=$(printf '%s' "$series" | sed 's/\./\\./g')
		release=$(ls "$store" 2>/dev/null | grep -E "^$re([.+-]|\$)" | sort -V | tail -n 1)
		if [ -z "$release" ] || [ ! -f "$store/$release/vmlinuz" ]; then
			echo "kernels: no $series kernel in $store, and VMREC_NO_INSTALL=$VMREC_NO_INSTALL: fetching nothing" >&2
			exit 1
		fi
		echo "kernels: $series -> $release (already in $store)"
	done
	exit 0 ;;
esac
command -v apt-get >/dev/null || { echo "kernels: apt-get not found (Debian only)" >&2; exit 1; }
mkdir -p "$store"

if [ "$(id -u)" = 0 ] && [ -z "$VMREC_NO_APT_UPDATE" ]; then
	apt-get update -qq >/dev/null 2>&1 || echo "kernels: apt-get update failed; using the package lists as they are" >&2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/vmrec-kernels.XXXXXX")
trap 'rm -rf "$work"' EXIT
# apt drops privileges to _apt for downloads; let it write there.
id _apt >/dev/null 2>&1 && chown _apt "$work" 2>/dev/null || true

for series in "$@"; do
	re=$(printf '%s' "$series" | sed 's/\./\\./g')
	pkg=$(apt-cache search --names-only "^linux-image-$re[.-][0-9].*-cloud-amd64\$" |
		awk '{print $1}' | sort -V | tail -n 1)
	if [ -z "$pkg" ]; then
		echo "kernels: no Debian package linux-image-$series.*-cloud-amd64 in the package lists" >&2
		exit 1
	fi
	release=${pkg#linux-image-}
	if [ -f "$store/$release/vmlinuz" ]; then
		echo "kernels: $series -> $release (already in $store)"
		continue
	fi
	(cd "$work" && apt-get download -q "$pkg" >/dev/null) ||
		{ echo "kernels: apt-get download $pkg failed" >&2; exit 1; }
	mkdir -p "$work/x"
	dpkg-deb --fsys-tarfile "$work"/"$pkg"_*.deb |
		tar -x -C "$work/x" "./boot/vmlinuz-$release" "./boot/config-$release"
	mkdir -p "$store/$release"
	mv "$work/x/boot/config-$release" "$store/$release/config"
	mv "$work/x/boot/vmlinuz-$release" "$store/$release/vmlinuz"
	rm -rf "$work/x" "$work"/*.deb
	echo "kernels: $series -> $release ($store/$release/vmlinuz)"
done
