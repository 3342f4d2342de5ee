#!/bin/sh
# exec: the process image's new initial map replaces the old one (the old
# stand-ins and heap are torn down, the new map is rebuilt).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
ev 100 mmap 0 0x3000 3 0x22 -1 0 = 0x20000000
ev 100 brk 0x10104000 0 0 0 0 0 = 0x10104000
ck 100 4 7 1
ev 100 execve 0 0 0 0 0 0 = 0 noreturn
process 100 1 1
map 100
vma 0x40000000 0x40002000 r-x [vdso]
vma 0x60000000 0x60002000 r-x newexe
vma 0x60002000 0x60003000 rw- newexe
vma 0x61000000 0x61001000 rw- [heap]
vma 0x70000000 0x70021000 rw- [stack]
end
ck 100 2 5 0
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x20000000
ev 100 brk 0x61003000 0 0 0 0 0 = 0x61003000
ck 100 3 6 0
EOF2
} | mk exec

"$V" -q --strict --per-event --json "$T/o.json" "$T/exec.vmt"
ok $? "checkpoints before and after exec match"
per_event "$T/o.json" >"$T/got"
cat >"$T/want" <<'EOF2'
100 mmap new 6 ok
100 brk expand_prev 6 ok
100 execve skipped 6 ok
100 mmap new 6 ok
100 brk expand_prev 6 ok
EOF2
is_file "$T/got" "$T/want" "the old mapping at 0x20000000 is gone: the new image maps it again"
done_testing
