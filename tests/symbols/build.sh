# tests/symbols/build.sh - sourced by the tests here: compile the program
# with known call paths and its plugin into $T/bin and record a trace of it
# into $T/cp.vmt.  Compiled by the test itself because it links libvmt.a
# and a shared library, which the generic progs/ rule does not build.
: "${CC:=cc}"
need_built "$B/bin/vmtrace" "$B/lib/libvmt.a"
mkdir -p "$T/bin"
CPFLAGS="-g -O1 -fno-omit-frame-pointer -fno-inline -D_GNU_SOURCE -I$S/traces"
$CC $CPFLAGS -shared -fPIC -o "$T/bin/libplugin.so" "$S/tests/symbols/src/plugin.c" ||
	fail_all "cannot compile the test plugin"
# A sanitizer's runtime would add calls of its own: under `make asan` the
# program gets an unsanitized copy of the trace library instead.
VMT_LIB=$B/lib/libvmt.a
nm "$VMT_LIB" 2>/dev/null | grep -q __asan_init && VMT_LIB=$(ls "$S"/traces/*.c)
$CC $CPFLAGS -o "$T/bin/callpaths" "$S/tests/symbols/src/callpaths.c" \
	"$S/tests/symbols/src/selfrec.c" $VMT_LIB -llz4 -lpthread -ldl ||
	fail_all "cannot compile the test program"
# The recorder's own stacks once it records them with module records (then
# main's frame symbolises); until then the program records itself.
# Preloaded alone: every event has a stack (the vmrec launcher's own
# events, the loader's from execve on, have none).
if [ -f "$B/lib/libvmrec.so" ] &&
	LD_PRELOAD=$B/lib/libvmrec.so VMREC_OUT=$T/cp.vmt VMREC_STACKS=32 \
		"$T/bin/callpaths" - "$T/bin/libplugin.so" 2>/dev/null &&
	VMREC_NO_SYMCACHE=1 "$B/bin/vmtrace" dump -k "$T/cp.vmt" 2>/dev/null | grep -q "/callpaths(main+0x"; then
	note "recorded with vmrec --stacks"
	SPAWN_EVENTS=3 # vmrec records the clone3 too
else
	SPAWN_EVENTS=2
	"$T/bin/callpaths" "$T/cp.vmt" "$T/bin/libplugin.so"
	case $? in
	0) note "recorded with selfrec (vmrec --stacks gave no symbolisable stacks)" ;;
	77) skip_all "seccomp filters not allowed here" ;;
	*) echo "Bail out! callpaths could not record itself"; exit 1 ;;
	esac
fi
OURS='(main|map_unmap|alloc_big|spawn_thread|load_plugin|plugin_ctor) \('
# ours: only the rows of call sites in callpaths.c and plugin.c
ours() { grep -E "  call site\$| $OURS"; }

# site NAME: "file.c:LINE" of the line marked /* site: NAME */
site() {
	for f in callpaths.c plugin.c; do
		l=$(grep -n "/\* site: $1 \*/" "$S/tests/symbols/src/$f" | cut -d: -f1)
		[ -n "$l" ] && { echo "$f:$l"; return; }
	done
	echo "Bail out! no site $1"; exit 1
}
# top ARGS...: vmtrace top without the latency and new columns
top_nolat() { "$B/bin/vmtrace" top "$@" | cut -c1-15,36-; }
