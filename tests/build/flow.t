#!/bin/sh
# Data flows one way: shim -> traces -> {kernel | simulator | QEMU} ->
# results -> report.  No #include runs against it: each part of the tree
# names only headers of itself and of the parts below it (lib/ is what
# several tools share; the simulator does not reach into the replayer).
# Inside a part, too, a file only uses files below it: no two files
# outside shim/ need each other, as the symbols of their objects show (a
# helper lives below its users, in a file of its own).
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
allowed() {
	case "$1" in
	traces/*)     echo "traces" ;;
	lib/*)        echo "lib traces" ;;
	shim/*)       echo "shim traces" ;;
	replay/sim/*) echo "replay/sim lib traces" ;;
	replay/*)     echo "replay lib traces" ;;
	analysis/*)   echo "analysis lib traces" ;;
	*)            echo "*" ;;
	esac
}
files=$(git ls-files 'traces/*.[ch]' 'lib/*.[ch]' 'shim/*.[chS]' 'replay/*.[ch]' 'analysis/*.[ch]' 2>/dev/null ||
	find traces lib shim replay analysis -name '*.[chS]')
ok "$([ -n "$files" ]; echo $?)" "the sources are found"
# lib/compat.h is macros only (uapi constants older headers lack, no
# object behind it): every part may include it, the recorder too.
incdir() { grep -v '^#[[:space:]]*include[[:space:]]*"lib/compat\.h"$' "$1" |
	sed -n 's|^#[[:space:]]*include[[:space:]]*"\([a-z_/]*[a-z_]\)/[^/"]*"$|\1|p'; }
bad=
for f in $files; do
	ok_dirs=$(allowed "$f")
	for inc in $(incdir "$f"); do
		fine=
		for d in $ok_dirs; do
			case "$inc" in "$d" | "$d"/*) fine=1 ;; esac
		done
		[ -n "$fine" ] || bad="$bad $f:$inc"
	done
done
is "${bad# }" "" "no include against the flow"
# a file outside the rules cannot hide: the check itself catches one
printf '#include "analysis/vmtrace.h"\n#include "vmt.h"\n#include "replay/sim/sim.h"\n' >"$T/probe.c"
inc=$(incdir "$T/probe.c")
is "$(echo $inc)" "analysis replay/sim" "the include pattern sees directory-qualified includes only"

# ---- the trace library's own headers stay its own ------------------------
# Outside traces/ (and its tests), the format is touched through vmt.h (and
# the table of calls it includes, vmt_syscalls.def) only; the recorder
# also has the store and raw calls written for it (vmt_store.h, vmt_raw.h).
# EXCEPTION, to go in shim/'s and replay/'s rounds (issue 37):
internal_exception='shim/record.c:vmt_meta.h shim/launch_trace.c:vmt_meta.h shim/vmrec.c:vmt_check.h'
libinc() { sed -n 's|^#[[:space:]]*include[[:space:]]*"\(traces/\)\{0,1\}\([a-z_0-9]*\.[a-z]*\)"$|\2|p' "$1"; }
bad=
for f in $(git ls-files '*.[chS]' 2>/dev/null || find . -name '*.[chS]' | sed 's|^\./||'); do
	case "$f" in traces/* | tests/trace/*) continue ;; esac
	[ -f "$f" ] || continue
	for h in $(libinc "$f"); do
		[ -f "traces/$h" ] || continue
		case "$h" in vmt.h | vmt_syscalls.def) continue ;; esac
		case "$f:$h" in shim/*:vmt_store.h | shim/*:vmt_raw.h) continue ;; esac
		case " $internal_exception " in *" $f:$h "*) continue ;; esac
		bad="$bad $f:$h"
	done
done
is "${bad# }" "" "outside traces/, only vmt.h of the trace library is included"
printf '#include "vmt_meta.h"\n#include "traces/vmt_check.h"\n#include "vmt.h"\n#include "lib/json.h"\n' >"$T/probe.c"
is "$(echo $(libinc "$T/probe.c"))" "vmt_meta.h vmt_check.h vmt.h" "the pattern sees the library's headers, named either way"

# ---- no circles between files, from the objects' symbols ----------------
# circles OBJECT...: each group of files that need each other, one line,
# "a.o b.o ..." (sorted).  A
# symbol defined in several objects (main) makes no link.
circles() {
	nm -A -g "$@" | awk '
	{ f = $1; sub(/:[^:]*$/, "", f) }
	$2 == "U" || $2 == "w" { use[++nu] = f; sym[nu] = $3; next }
	{ if (($3 in def) && def[$3] != f) dup[$3] = 1; else def[$3] = f }
	END {
		for (i = 1; i <= nu; i++) {
			s = sym[i]
			if (!(s in def) || (s in dup) || def[s] == use[i]) continue
			if (!(use[i] in id)) { id[use[i]] = ++n; name[n] = use[i] }
			if (!(def[s] in id)) { id[def[s]] = ++n; name[n] = def[s] }
			r[id[use[i]], id[def[s]]] = 1
		}
		for (k = 1; k <= n; k++) for (i = 1; i <= n; i++) if (r[i, k])
			for (j = 1; j <= n; j++) if (r[k, j]) r[i, j] = 1
		for (i = 1; i <= n; i++) {
			if (done[i] || !r[i, i]) continue
			line = ""
			for (j = 1; j <= n; j++) if (r[i, j] && r[j, i]) { done[j] = 1; line = line " " name[j] }
			print substr(line, 2)
		}
	}' | while read -r line; do echo $(printf '%s\n' $line | sort); done | sort
}
srcs=$(git ls-files '*.c' '*.S' 2>/dev/null | grep -v -e '^shim/' -e '^tests/' ||
	find traces lib replay analysis lkp -name '*.[cS]')
objs=
for f in $srcs; do
	o=$B/obj/${f%.*}.o
	[ -f "$o" ] || fail_all "$o is not built (make all, or make check)"
	objs="$objs $o"
done
ok "$([ -n "$objs" ]; echo $?)" "the objects outside shim/ are found"
all=$(circles $objs | sed "s|$B/obj/||g")
is "$all" "" "no two files outside shim/ need each other"
# the check itself sees a circle: two objects that need each other
printf 'int b(void);\nint a(void) { return b(); }\n' >"$T/a.c"
printf 'int a(void);\nint c(void);\nint b(void) { return a() + c(); }\n' >"$T/b.c"
printf 'int c(void) { return 1; }\nint main(void) { return 0; }\n' >"$T/c.c"
printf 'int main(void) { return 0; }\n' >"$T/d.c"
for x in a b c d; do ${CC:-cc} -c -o "$T/$x.o" "$T/$x.c" || fail_all "cannot compile the probe"; done
is "$(circles "$T/a.o" "$T/b.o" "$T/c.o" "$T/d.o" | sed "s|$T/||g")" "a.o b.o" \
	"the check finds two files that need each other, and only them"
done_testing
