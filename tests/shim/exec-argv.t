#!/bin/sh
# execve's and execveat's argv and envp count are recorded (ARGV records)
# and vmtrace dump prints them as strace -f does, for every form strace
# tells apart (tests/shim/progs/exec_argv.c): through the libc wrapper, a
# raw syscall, a vfork child and the hand-over to a new image; and the
# same program linked statically under the launcher, which records them.  Bad
# pointers give the program the kernel's EFAULT or ENOENT, as natively.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
have_strace || skip_all "strace cannot trace here"
V=$B/bin/vmtrace
need_built "$V" "$B/bin/vmreplay" "$P/exec_argv" "$B/bin/vmrec" "$B/tests/shim/static_exec_argv"

"$P/exec_argv" >"$T/native"; native=$?
record "$T/run.lz4" "$P/exec_argv" >"$T/recorded" 2>"$T/err"; st=$?
is "$st" "$native" "exit status as native"
is_file "$T/recorded" "$T/native" "the program's output as native (each call's errno)"
is "$(cat "$T/err")" "" "nothing on stderr"
like "$("$V" check "$T/run.lz4")" "OK: " "the trace checks"

# pids and addresses differ from run to run; the rest is strace's
norm() { sed -E 's/^[0-9]+ +//; s/0x[0-9a-f]+/0xADDR/g; s/\) +=/) =/'; }
"$V" dump "$T/run.lz4" | grep -E '^[0-9]+ +execve(at)?\(' | norm >"$T/got"
strace -f -qq -e signal=none -e trace=execve,execveat -o "$T/st" "$P/exec_argv" >/dev/null 2>&1
sed 1d "$T/st" | norm >"$T/want"   # its first line is strace's own exec of the program
is_file "$T/got" "$T/want" "dump prints execve's argv and envp as strace -f does"
is "$(wc -l <"$T/got")" 12 "every call of the program (the check above can fail)"

"$V" dump "$T/run.lz4" | grep -c ' execve("/bin/true", \["true", "--done"\], 0x[0-9a-f]* /\* 1 var \*/) = 0$' >"$T/n"
is "$(cat "$T/n")" 1 "the successful exec, recorded by the new image, has the old image's argv"
# a seccomp filter that refuses process_vm_readv: plain loads instead
"$P/exec_argv" seccomp >"$T/native"; native=$?
record "$T/sc.lz4" "$P/exec_argv" seccomp >"$T/recorded" 2>"$T/err"; st=$?
is "$st:$(cat "$T/err")" "$native:" "seccomp: exit status as native, nothing on stderr"
is_file "$T/recorded" "$T/native" "seccomp: the program's output as native"
"$V" dump "$T/sc.lz4" | grep -E '^[0-9]+ +execve\(' | norm >"$T/got"
cat >"$T/want" <<'W'
execve("/nonexistent", ["a", "0123456789abcdef0123456789abcdef"...], 0xADDR /* 1 var */) = -1 ENOENT (No such file or directory)
execve("/nonexistent", [], 0xADDR /* 0 vars */) = -1 ENOENT (No such file or directory)
execve("/bin/true", ["true", "--done"], 0xADDR /* 1 var */) = 0
W
is_file "$T/got" "$T/want" "seccomp: argv and envp recorded all the same"

"$B/bin/vmreplay" -q --strict --target sim --kernel host "$T/run.lz4" >"$T/out" 2>&1
ok $? "the trace replays in the simulator"

SE=$B/tests/shim/static_exec_argv
"$SE" >"$T/native"; native=$?
"$B/bin/vmrec" -o "$T/l.lz4" -- "$SE" >"$T/recorded" 2>"$T/err"; st=$?
is "$st:$(cat "$T/err")" "$native:" "static, under the launcher: exit status as native, nothing on stderr"
is_file "$T/recorded" "$T/native" "static, under the launcher: the program's output as native"
"$V" dump "$T/l.lz4" | grep -E '^[0-9]+ +execve(at)?\(' | norm >"$T/got"
strace -f -qq -e signal=none -e trace=execve,execveat -o "$T/st" "$SE" >/dev/null 2>&1
sed 1d "$T/st" | norm >"$T/want"
is_file "$T/got" "$T/want" "static, under the launcher: argv and envp as strace -f shows them"
"$TC" -a "$T/l.lz4" | awk '$1 == "file" && $4 == "/bin/true"' | grep -q 'ino=[1-9]'
ok $? "static, under the launcher: the exec's FILE names /bin/true, its inode found"
done_testing
