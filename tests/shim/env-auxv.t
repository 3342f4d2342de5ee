#!/bin/sh
# Under vmrec a program sees what it sees natively: the auxiliary vector
# right after envp's NULL on the initial stack (Go's runtime finds it so),
# and the environment without the recorder's variables, a stray VMREC_
# variable of the user's kept; a Go program (Debian's fzf) runs as
# natively, with and without one.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec
need_built "$V" "$P/auxv_walk"
cd "$T" || exit 1

"$P/auxv_walk" >n.out
"$V" -o a.lz4 -- "$P/auxv_walk" >r.out
is_file r.out n.out "auxv past envp and the environment, as natively"
grep -q 'page size found' r.out; ok $? "AT_PAGESZ is found"
VMREC_X=1 "$P/auxv_walk" >n2.out
VMREC_X=1 "$V" -o a.lz4 -- "$P/auxv_walk" >r2.out
is_file r2.out n2.out "with a stray VMREC_X=1: the same auxv, and VMREC_X kept"
# VMREC_SUD is the recorder's own (docs/man/vmrec.1): it goes, auxv stays
VMREC_SUD=0 "$V" -o a.lz4 -- "$P/auxv_walk" | grep auxv >r3.out
VMREC_SUD=0 "$P/auxv_walk" | grep auxv >n3.out
is_file r3.out n3.out "with VMREC_SUD=0: the same auxv"

if command -v fzf >/dev/null 2>&1; then
	for x in "" VMREC_X=1; do
		printf 'a\nb\nab\n' | env $x fzf -f a >n.fzf 2>n.fze; nst=$?
		printf 'a\nb\nab\n' | env $x "$V" -o f.lz4 -- fzf -f a >r.fzf 2>r.fze; rst=$?
		is "$rst:$(cat r.fzf):$(cat r.fze)" "$nst:$(cat n.fzf):$(cat n.fze)" \
		   "fzf (Go) ${x:-as given}: status, stdout and stderr as natively"
	done
	"$B/bin/vmtrace" check f.lz4 | grep -q 'OK: '; ok $? "fzf's trace checks OK"
else
	skip "no fzf (apt-get install fzf)"
	skip "no fzf"
	skip "no fzf"
fi
done_testing
