#!/bin/sh
# After `make install PREFIX=...`, an installed user can get kernels for
# `vmreplay --vm`: vmreplay's "no release" error names the installed
# vmrec-kernels, which fetches into PREFIX/kernels, where the installed
# vmreplay then finds the kernel.  The download goes through the real
# apt-get download and its checksum check, from a local file:// archive
# (APT_CONFIG) holding a stand-in kernel package: no network.
. "$(dirname "$0")/../lib.sh"
# a make of its own (BUILD is this build: nothing is rebuilt).  The
# "download" below comes from a file:// archive this test makes, so it
# runs under VMREC_NO_INSTALL=1 too: nothing is installed or fetched from
# outside (tests/build/no-install.t runs it so).
unset MAKEFLAGS MFLAGS MAKELEVEL VMREC_KERNELS VMREC_NO_INSTALL
P=$T/prefix
make -s -C "$S" BUILD="$B" PREFIX="$P" install >"$T/out" 2>&1
ok $? "make install PREFIX=$P"
sed 's/^/# /' "$T/out" | head -n 5
for f in bin/vmreplay bin/vmtrace bin/vmreport bin/vmrec bin/vmrec-kernels lib/libvmrec.so \
	share/man/man1/vmrec-kernels.1 share/man/man1/vmreplay.1; do
	[ -f "$P/$f" ] || missing="$missing $f"
done
is "${missing# }" "" "the tools, the library and the man pages are installed"
[ -d "$P/kernels" ]; is "$?" 1 "no kernel store yet"

TRACE=$S/traces/samples/python3-import-json.lz4
"$P/bin/vmreplay" --vm 6.1 "$TRACE" >"$T/out" 2>"$T/err"
is "$?" 2 "vmreplay --vm 6.1 without kernels: exit status 2"
is "$(cat "$T/err")" "vmreplay --vm: kernel '6.1': not a file and no release 6.1* in the kernel store $P/kernels (fetch it with: $P/bin/vmrec-kernels 6.1)" \
	"the error names the installed store and the installed command"

# A Debian-style flat archive with one stand-in cloud kernel package.
REL=6.1.0-99-cloud-amd64 PKG=linux-image-6.1.0-99-cloud-amd64
A=$T/apt
mkdir -p "$A/pkg/DEBIAN" "$A/pkg/boot" "$A/repo" "$A/lists/partial" "$A/cache/archives/partial" "$A/parts"
echo "stand-in vmlinuz $REL" >"$A/pkg/boot/vmlinuz-$REL"
echo "CONFIG_SERIAL_8250=y" >"$A/pkg/boot/config-$REL"
cat >"$A/pkg/DEBIAN/control" <<EOF2
Package: $PKG
Version: 6.1.999-1
Architecture: amd64
Maintainer: vmrec tests <nobody@example.org>
Description: stand-in cloud kernel for vmrec's tests
EOF2
DEB=${PKG}_6.1.999-1_amd64.deb
dpkg-deb --root-owner-group -b "$A/pkg" "$A/repo/$DEB" >/dev/null
index() {
	{ grep -v '^Description' "$A/pkg/DEBIAN/control"
	  echo "Filename: ./$DEB"
	  echo "Size: $(stat -c %s "$A/repo/$DEB")"
	  echo "SHA256: $(sha256sum "$A/repo/$DEB" | cut -d' ' -f1)"
	  grep '^Description' "$A/pkg/DEBIAN/control"; echo; } >"$A/repo/Packages"
}
index
echo "deb [trusted=yes] file:$A/repo ./" >"$A/sources.list"
cat >"$A/apt.conf" <<EOF2
Dir::Etc::SourceList "$A/sources.list";
Dir::Etc::SourceParts "$A/parts";
Dir::State::Lists "$A/lists";
Dir::Cache "$A/cache";
Debug::NoLocking "true";
APT::Sandbox::User "$(id -un)";
EOF2
export APT_CONFIG="$A/apt.conf"
apt-get update -qq >"$T/out" 2>&1
st=$?
ok $st "apt-get update from the local archive"
[ $st -eq 0 ] || sed 's/^/# /' "$T/out"

# the command the error named, as given (the lists are fresh: no update)
VMREC_NO_APT_UPDATE=1 "$P/bin/vmrec-kernels" 6.1 >"$T/out" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:" "vmrec-kernels 6.1: exit 0, nothing on stderr"
is "$(cat "$T/out")" "vmrec-kernels: 6.1 -> $REL ($P/kernels/$REL/vmlinuz)" "it says what it fetched, and where"
cmp -s "$P/kernels/$REL/vmlinuz" "$A/pkg/boot/vmlinuz-$REL" &&
	cmp -s "$P/kernels/$REL/config" "$A/pkg/boot/config-$REL"
ok $? "the package's vmlinuz and config are in PREFIX/kernels/$REL"
VMREC_NO_APT_UPDATE=1 "$P/bin/vmrec-kernels" 6.1 >"$T/out" 2>&1
is "$?:$(cat "$T/out")" "0:vmrec-kernels: 6.1 -> $REL (already in $P/kernels)" "a second run fetches nothing"

# the installed vmreplay now boots that kernel (a stand-in qemu records how)
if [ -x "$P/bin/vmreplay-static" ]; then
	printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s"\nexit 1\n' "$T/qemu-args" >"$T/qemu"
	chmod +x "$T/qemu"
	VMREC_QEMU=$T/qemu "$P/bin/vmreplay" --vm 6.1 "$TRACE" >/dev/null 2>&1
	grep -A1 -x -- -kernel "$T/qemu-args" 2>/dev/null | tail -n 1 >"$T/kernel"
	is "$(cat "$T/kernel")" "$P/kernels/$REL/vmlinuz" "vmreplay --vm 6.1 boots the fetched kernel"
else
	skip "a sanitized build installs no static guest programs"
fi

# a package whose bytes differ from the archive's index is refused
rm -rf "$P/kernels"
echo tampered >>"$A/repo/$DEB"
VMREC_NO_APT_UPDATE=1 "$P/bin/vmrec-kernels" 6.1 >"$T/out" 2>"$T/err"
is "$?" 1 "a package that fails its checksum: exit 1"
grep -q "^vmrec-kernels: apt-get download $PKG failed: .*Hash Sum mismatch" "$T/err"
ok $? "and one line says so: $(cat "$T/err")"
[ ! -e "$P/kernels/$REL" ]; ok $? "nothing of it is in the store"

# not writable: says what to do (as root every directory is writable)
if [ "$(id -u)" != 0 ]; then
	mkdir "$T/ro" && chmod 555 "$T/ro"
	VMREC_KERNELS=$T/ro/k "$P/bin/vmrec-kernels" 6.1 >/dev/null 2>"$T/err"
	is "$?:$(cat "$T/err")" "1:vmrec-kernels: cannot write the kernel store $T/ro/k (run as its owner, or set VMREC_KERNELS=DIR for this command and vmreplay)" \
		"an unwritable store: one line says what to do"
fi
done_testing
