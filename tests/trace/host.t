#!/bin/sh
# vmt_host_probe reports what uname, /proc and /sys say on this machine.
. "$(dirname "$0")/../lib.sh"
P=$B/tests/trace/progs/host_probe
need_built "$P"
"$P" >"$T/out"; ok $? "host_probe runs"
field() { sed -n "s/^$1=//p" "$T/out"; }
is "$(field kernel)" "$(uname -r)" "kernel release"
is "$(field machine)" "$(uname -m)" "machine"
is "$(field cpu)" "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)" "CPU model"
is "$(field glibc)" "$(getconf GNU_LIBC_VERSION | cut -d' ' -f2)" "glibc version"
is "$(field page_size)" "$(getconf PAGESIZE)" "page size"
is "$(field cores)" "$(getconf _NPROCESSORS_ONLN)" "online cores"
is "$(field memory_kb)" "$(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo)" "memory"
if [ -r /sys/kernel/mm/transparent_hugepage/enabled ]; then
	is "$(field thp_enabled)" "$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled)" "THP enabled"
	is "$(field thp_defrag)" "$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/defrag)" "THP defrag"
	is "$(field hpage_pmd_size)" "$(cat /sys/kernel/mm/transparent_hugepage/hpage_pmd_size)" "hpage_pmd_size"
fi
is "$(field max_map_count)" "$(cat /proc/sys/vm/max_map_count)" "vm.max_map_count"
is "$(field mmap_min_addr)" "$(cat /proc/sys/vm/mmap_min_addr)" "vm.mmap_min_addr"
done_testing
