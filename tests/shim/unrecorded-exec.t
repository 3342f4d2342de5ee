#!/bin/sh
# An exec the preloaded recorder cannot follow: a statically linked
# program, or one the kernel runs with privilege it gains at exec
# (setuid, setgid, file capabilities: ld.so ignores LD_PRELOAD then).
# The program behaves as natively, one line on stderr says why, the pid's
# END says it too (vmtrace stats: "unrecorded exec: static|privileged"),
# and the trace is finished, also when the exec is a forked or vforked
# child's (a shell's `prog; ...`), where nobody used to leave the store.
# Under a privileged launcher such an image is the launcher's to record
# from its execve to its end (libvmrec is not in it); under an
# unprivileged one the kernel runs it without its privilege (the filter's
# no_new_privs, as under strace) and its PROCESS says so.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec
VT=$B/bin/vmtrace
ST=$B/tests/shim/static_hello
need_built "$V" "$VT" "$ST"
cd "$T" || exit 1

# the line vmtrace stats prints for a pid's last process: its END and origin
proc_line() { "$VT" stats "$1" | awk -v p="$2" '$1 == p && NF >= 5 { $1 = $2 = $3 = $4 = ""; print; exit }' | sed 's/^ *//'; }
child_of() { "$TC" "$1" | awk '$3 == "execve" { print $1; exit }'; }

if file "$ST" 2>/dev/null | grep -q 'statically linked'; then
	out=$(record s.lz4 sh -c "$ST; echo \$?" 2>err); st=$?
	is "$out:$st" "static PASS
4:0" "static, run by a recorded shell: runs as natively"
	is "$(cat err)" "vmrec: $ST is statically linked: not recorded" "one line says why"
	ok "$([ -f s.lz4 ]; echo $?)" "the trace is finished"
	is "$(ls | grep -c 'vmrec-store')" 0 "no store left behind"
	c=$(child_of s.lz4)
	like "$(proc_line s.lz4 "$c")" "(unrecorded exec: static)" "its pid's END says why"
else
	ok 1 "static_hello is not statically linked (no static libc): see shim/module.mk" # a build product missing fails
fi

if [ "$(id -u)" != 0 ]; then
	done_testing
	exit
fi
# a setuid copy of id(1), owned by nobody: `id -u` prints the euid it runs with
chmod 755 "$T"
mkdir out && chmod 1777 out
cp "$(command -v id)" suid_id && chown nobody suid_id && chmod 4755 suid_id
native=$(sh -c "$T/suid_id -u; echo \$?" 2>&1)
out=$(record out/p.lz4 sh -c "$T/suid_id -u; echo \$?" 2>err)
is "$out" "$native" "setuid: runs with its privilege, as natively ($(echo $native))"
is "$(cat err)" "vmrec: $T/suid_id runs with privilege (setuid, setgid or capabilities): not recorded" \
	"setuid: one line says why"
ok "$([ -f out/p.lz4 ]; echo $?)" "setuid: the trace is finished"
c=$(child_of out/p.lz4)
like "$(proc_line out/p.lz4 "$c")" "(unrecorded exec: privileged)" "setuid: its pid's END says why"

out=$("$V" -o out/l.lz4 -- sh -c "$T/suid_id -u; echo \$?" 2>err)
is "$out" "$native" "setuid, under the launcher: runs with its privilege, as natively"
is "$(cat err)" "" "setuid, under the launcher: nothing on stderr"
c=$(child_of out/l.lz4)
like "$(proc_line out/l.lz4 "$c")" "[from execve: launcher]" "setuid, under the launcher: recorded by the launcher alone"
"$TC" out/l.lz4 | grep -q "^$c $c exit_group .*LAUNCHER"
ok $? "setuid, under the launcher: to its end"

# an unprivileged user and a setuid-root copy
cp "$(command -v id)" root_id && chmod 4755 root_id
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
# the build may sit where nobody cannot reach it (a clone under a 0700
# mktemp -d): nobody runs copies in $T, laid out as vmrec looks for them
mkdir -p nb/bin nb/lib && cp "$V" nb/bin/ && cp "$LIB" nb/lib/ && chmod -R a+rX nb
V=$T/nb/bin/vmrec LIB=$T/nb/lib/libvmrec.so
if ! command -v setpriv >/dev/null || ! as_nobody "$V" -o "$T/out/probe.lz4" -- true 2>err; then
	diag "nobody cannot record here: $(cat err)"
	ok 1 "an unprivileged user runs the recorder"
	done_testing
	exit
fi
native=$(as_nobody sh -c "$T/root_id -u; echo \$?" 2>&1)
out=$(as_nobody env LD_PRELOAD="$LIB" VMREC_OUT="$T/out/u.lz4" sh -c "$T/root_id -u; echo \$?" 2>err)
is "$out" "$native" "unprivileged, preloaded: runs with its privilege, as natively ($(echo $native))"
ok "$([ -f out/u.lz4 ]; echo $?)" "unprivileged, preloaded: the trace is finished"
c=$(child_of out/u.lz4)
like "$(proc_line out/u.lz4 "$c")" "(unrecorded exec: privileged)" "unprivileged, preloaded: its END says why"

out=$(as_nobody "$V" -o "$T/out/n.lz4" -- sh -c "$T/root_id -u; echo \$?" 2>err)
is "$out" "$(id -u nobody)
0" "unprivileged launcher: runs without its privilege, as under strace"
is "$(cat err)" "" "unprivileged launcher: nothing on stderr"
c=$(child_of out/n.lz4)
like "$(proc_line out/n.lz4 "$c")" "run without its setuid/setgid privilege]" \
	"unprivileged launcher: the trace says so for that process"
like "$("$VT" stats --json out/n.lz4 | grep "\"pid\": $c,")" '"recorded_from": "execve: launcher, then preload, run without' \
	"and in vmtrace stats --json"
sh_pid=$("$TC" -a out/n.lz4 | awk '$1 == "process" && $4 == 0 { print $2; exit }')
like "$(proc_line out/n.lz4 "$sh_pid")" "[from execve: launcher, then preload]" "its parent, no setuid file, says nothing of it"
done_testing
