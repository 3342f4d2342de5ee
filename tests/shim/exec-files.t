#!/bin/sh
# execve and execveat name their file by a FILE record (events keep no
# strings), so vmtrace dump prints the file name as strace does: through
# posix_spawn's vfork child, a fork child's execve and fexecve's
# execveat(fd, ""); and FILE ids stay unique per pid across exec (the new
# image goes on after the old one's ids).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
have_strace || skip_all "strace cannot trace here"
V=$B/bin/vmtrace

# the call up to its file name: 'execve("/proc/self/exe"', 'execveat(3, ""'
names() { sed -nE 's/^[0-9]+ +(execve(at)?\((-?[0-9]+, )?"[^"]*").*/\1/p' | sort; }

record "$T/run.lz4" "$P/spawn_exec" >/dev/null
"$V" dump "$T/run.lz4" | names >"$T/got"
strace -f -qq -e trace=execve,execveat -o "$T/st" "$P/spawn_exec" >/dev/null 2>&1
sed 1d "$T/st" | names >"$T/want"   # its first line is strace's own execve of the program
is_file "$T/got" "$T/want" "execve and execveat show the file names strace shows"
is "$(wc -l <"$T/got")" 3 "posix_spawn, fork + execve and fexecve (the check above can fail)"

# a shell maps its libraries (FILE records), then execs in the same pid
record "$T/sh.lz4" sh -c "exec $P/spawn_exec child"
dups() { "$TC" -a "$1" | awk '$1 == "file" { if (seen[$2 " " $3]++) print "pid " $2 " id " $3 " twice" }'; }
is "$(dups "$T/sh.lz4")" "" "every FILE id names one file of its pid, across exec"
is "$(dups "$T/run.lz4")" "" "the same through posix_spawn, fork + execve and fexecve"
"$TC" -a "$T/sh.lz4" | awk '$1 == "process" { img = $6 }
	$1 == "file" && img > 0 { after++ } $1 == "file" && img == 0 { before++ }
	END { print (before > 0 && after > 0) ? "both" : "one" }' >"$T/both"
is "$(cat "$T/both")" both "both images of the shell's pid have FILE records (the check above can fail)"
done_testing
