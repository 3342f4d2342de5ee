#!/bin/sh
# fatal-handlers: the recorder takes each fatal signal left at its
# default (to flush the trace before the death) with one rt_sigaction,
# putting back at once what the program inherited otherwise; the program
# sees every disposition as natively (sigaction, /proc/self/status's
# SigIgn), with and without ignored signals inherited, and its own
# handlers and ignores work.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
need_built "$P/dispositions"
have_strace || skip_all "strace cannot trace here"

native=$("$P/dispositions")
recorded=$(record "$T/a.lz4" "$P/dispositions")
is "$recorded" "$native" "dispositions as natively"
like "$recorded" "handled 1" "the program's own SIGTERM handler runs"
# SIGINT, SIGHUP and SIGQUIT ignored by the parent (as nohup and a
# shell's background jobs do): still ignored, in the kernel too
native=$(sh -c 'trap "" INT HUP QUIT; exec "$1"' sh "$P/dispositions")
recorded=$(sh -c 'trap "" INT HUP QUIT; LD_PRELOAD=$2 VMREC_OUT=$3 exec "$1"' sh "$P/dispositions" "$LIB" "$T/b.lz4")
like "$native" "Interrupt ignored" "natively the inherited ignores show"
is "$recorded" "$native" "inherited ignores as natively"

# one call per fatal signal at start-up: the 9 fatal signals and SIGSYS,
# and one more for each of the 9 this test inherited ignored (a shell's
# background job ignores SIGINT and SIGQUIT)
ign=$(awk '/^SigIgn:/ { print $2 }' /proc/$$/status)
ignored() {   # MASK: how many of the 9 fatal signals MASK ignores
	_n=0
	for _sig in 1 2 3 4 6 7 8 11 15; do
		[ $(( ($1 >> (_sig - 1)) & 1 )) = 1 ] && _n=$((_n + 1))
	done
	echo $_n
}
more=$(ignored 0x$ign)
strace -qq -E LD_PRELOAD="$LIB" -E VMREC_OUT="$T/c.lz4" -e trace=rt_sigaction -o "$T/st" /bin/true
n=$(grep -c '^rt_sigaction(' "$T/st")
is "$n" $((10 + more)) "rt_sigaction calls at start-up: $n ($more fatal signals inherited ignored)"
sh -c 'trap "" INT HUP QUIT; exec strace -qq -E LD_PRELOAD="$1" -E VMREC_OUT="$2" -e trace=rt_sigaction -o "$3" /bin/true' sh "$LIB" "$T/d.lz4" "$T/st2"
more=$(ignored $((0x$ign | 0x7)))   # and SIGHUP, SIGINT, SIGQUIT
is "$(grep -c '^rt_sigaction(' "$T/st2")" $((10 + more)) "with three ignores inherited: one more call each"
done_testing
