#!/bin/sh
# vmtrace syscalls prints the one table of system calls
# (traces/vmt_syscalls.def): ids in order from 1, names unique, and every
# x86-64 number the kernel's own header gives for that name.
. "$(dirname "$0")/../lib.sh"
need_built "$B/bin/vmtrace"
"$B/bin/vmtrace" syscalls >"$T/table"
is "$?" 0 "vmtrace syscalls runs"
is "$(head -1 "$T/table")" "# id name nr nargs predict result format effect range match residency ranges file args" "a header names the columns"
grep -v '^#' "$T/table" >"$T/rows"
is "$(awk '$1 != NR { print; exit }' "$T/rows")" "" "ids are 1, 2, 3, ... in table order"
is "$(awk '{ print $2, $10 }' "$T/rows" | sort | uniq -d)" "" "no name and match twice"
is "$(awk '$2 == "prctl" || $2 == "ioctl" { print $2, $3, $10, $11, $12 }' "$T/rows")" \
"prctl 157 arg0=0x53564d41 NONE VMA_NAME
prctl 157 arg0=0x29 NONE NONE
prctl 157 arg0=0x43 NONE NONE
prctl 157 arg0=0x41 NONE NONE
ioctl 16 arg1=0xc020aa00 NONE UFFDIO_REGISTER
ioctl 16 arg1=0x8010aa01 NONE UFFDIO_RANGE" "rows sharing a number say which calls are theirs, and what is read for them"
is "$(awk '$11 != "NONE" { print $2, $11 }' "$T/rows")" \
"brk BRK
munmap RANGE
mremap RANGE
mprotect RANGE
pkey_mprotect RANGE
madvise RANGE
process_madvise RANGES" "the residency column: the calls that change or remove resident pages"
is "$(awk '$2 == "mmap" || $2 == "munmap" || $2 == "brk" || $2 == "shmat" { print $2, $8, $9 }' "$T/rows")" \
"brk BRK -
mmap MAP 0,1
munmap UNMAP 0,1
shmat ATTACH 1" "the effect column says what a call does, the range which arguments name it"
is "$(awk '$13 != "NONE" { print $2, $13 }' "$T/rows")" \
"mmap FD
shmat SHMID
execve PATH
execveat PATH_AT" "the file column: the calls whose FILE record names a file, and how"
ok "$([ "$(wc -l <"$T/rows")" -ge 23 ]; echo $?)" "at least the 23 calls of format version 1"
H=/usr/include/x86_64-linux-gnu/asm/unistd_64.h
if [ -r "$H" ]; then
	bad=
	while read -r id name nr rest; do
		k=$(awk -v n="__NR_$name" '$1 == "#define" && $2 == n { print $3 }' "$H")
		# the kernel headers of Debian 12 predate mseal (462, Linux 6.10)
		[ -z "$k" ] && [ "$name" = mseal ] && k=462
		# nor map_shadow_stack (453, Linux 6.6)
		[ -z "$k" ] && [ "$name" = map_shadow_stack ] && k=453
		[ "$k" = "$nr" ] || bad="$bad $name($nr, header ${k:-none})"
	done <"$T/rows"
	is "${bad# }" "" "every number is the kernel header's __NR_ for that name"
else
	ok 1 "no $H (linux-libc-dev) to check the numbers against"
fi
"$B/bin/vmtrace" syscalls extra 2>"$T/err"
is "$?" 2 "an argument is refused"
is "$(cat "$T/err")" "usage: vmtrace syscalls" "with the usage line"
done_testing
