#!/bin/sh
# selftests-fetch.sh RELEASE DIR - print the path of linux-source-RELEASE's
# tarball.  The machine's own /usr/src/linux-source-RELEASE.tar.xz when it
# is there (6.1 and 6.12: mk/deps.sh installs them from bookworm and
# bookworm-backports); otherwise the package is fetched from Debian's
# unstable suite (of the archive the machine's apt uses) into DIR with
# `apt-get download` and unpacked there.  The suite is named by a sources
# list inside DIR and passed with -o options:
# the machine's apt configuration, package lists and cache are not touched.
# Kept until unstable has another version of the package.
# Exit 1 with the reason on stderr when the source cannot be had.
set -u
rel=$1 dir=$2
src=${VMREC_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
pkg=linux-source-$rel
if [ -f "/usr/src/$pkg.tar.xz" ]; then
	echo "/usr/src/$pkg.tar.xz"
	exit 0
fi
case $rel in
6.1 | 6.12)
	sh "$src/mk/deps.sh" "$pkg" >&2 || exit 1
	[ -f "/usr/src/$pkg.tar.xz" ] || { echo "$pkg is installed but /usr/src/$pkg.tar.xz is missing" >&2; exit 1; }
	echo "/usr/src/$pkg.tar.xz"
	exit 0 ;;
esac
command -v apt-get >/dev/null 2>&1 || { echo "no apt-get: $pkg cannot be fetched" >&2; exit 1; }
# the Debian archive the machine's apt already uses (its main suite, not
# the security or updates one): unstable is asked there
archive=$(apt-get indextargets --format '$(REPO_URI) $(SUITE)' 'Identifier: Packages' 2>/dev/null |
	awk '$2 !~ /-/ { print $1; exit }')
[ -n "$archive" ] || { echo "no Debian archive in the machine's apt sources: $pkg cannot be fetched" >&2; exit 1; }
mkdir -p "$dir/etc/preferences.d" "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/deb" || exit 1
dir=$(cd "$dir" && pwd)
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $archive unstable main" >"$dir/etc/sources.list"
# everything apt reads or writes is under DIR
set -- -o "Dir::Etc::sourcelist=$dir/etc/sources.list" -o Dir::Etc::sourceparts=- \
	-o "Dir::Etc::preferencesparts=$dir/etc/preferences.d" -o "Dir::State::lists=$dir/lists" \
	-o "Dir::Cache=$dir/cache" -o Debug::NoLocking=1 -o APT::Get::List-Cleanup=0
if ! apt-get "$@" -qq update >"$dir/update.log" 2>&1; then
	# offline: the copy fetched before, if there is one
	for t in "$dir"/deb/*/usr/src/"$pkg".tar.xz; do
		[ -f "$t" ] && { echo "$t"; exit 0; }
	done
	echo "apt-get update (unstable, in $dir) failed: $(tail -n 1 "$dir/update.log")" >&2
	exit 1
fi
version=$(apt-cache "$@" show --no-all-versions "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
[ -n "$version" ] || { echo "Debian unstable has no $pkg" >&2; exit 1; }
tarball=$dir/deb/$version/usr/src/$pkg.tar.xz
if [ ! -f "$tarball" ]; then
	rm -rf "$dir/deb"/* "$dir"/*.deb
	(cd "$dir" && apt-get "$@" -qq download "$pkg=$version") >"$dir/download.log" 2>&1 ||
		{ echo "apt-get download $pkg=$version failed: $(tail -n 1 "$dir/download.log")" >&2; exit 1; }
	dpkg-deb -x "$dir"/"${pkg}"_*.deb "$dir/deb/$version" && rm -f "$dir"/*.deb ||
		{ echo "cannot unpack the $pkg package" >&2; exit 1; }
fi
[ -f "$tarball" ] || { echo "the $pkg package holds no $pkg.tar.xz" >&2; exit 1; }
echo "$tarball"
