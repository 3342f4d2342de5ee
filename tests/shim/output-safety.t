#!/bin/sh
# The trace is written safely: a symlink at the output path is replaced,
# never followed; an existing trace is replaced only by rename of a
# complete new one (a hard link to the old one keeps it whole); mode 0600
# unless --mode says otherwise.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec VT=$B/bin/vmtrace
need_built "$V" "$VT"
cd "$T" || exit 1

echo precious >target
ln -s target link.lz4
"$V" -o link.lz4 -- true; ok $? "vmrec -o SYMLINK records"
is "$(cat target)" "precious" "vmrec: the symlink's target is untouched"
ok $([ -f link.lz4 ] && [ ! -L link.lz4 ]; echo $?) "vmrec: the link is replaced by the trace"
like "$("$VT" check link.lz4)" "OK: " "vmrec: the trace checks OK"

ln -sf target hand.lz4
record "$T/hand.lz4" /bin/true
is "$(cat target)" "precious" "by hand: the symlink's target is untouched"
like "$("$VT" check hand.lz4)" "OK: " "by hand: the trace checks OK"

is "$(stat -c %a link.lz4)" 600 "mode 0600 by default"
"$V" --mode=644 -o open.lz4 -- true
is "$(stat -c %a open.lz4)" 644 "--mode=644"
(umask 077; "$V" --mode 640 -o g.lz4 -- true)
is "$(stat -c %a g.lz4)" 640 "--mode 640, whatever the umask"

"$V" -o old.lz4 -- true
ln old.lz4 keep.lz4
cmp -s old.lz4 keep.lz4; ok $? "a hard link to the old trace"
was=$("$VT" check keep.lz4)
"$V" -o old.lz4 -- sh -c true
ok $([ "$(stat -c %i old.lz4)" != "$(stat -c %i keep.lz4)" ]; echo $?) "the trace is a new file"
like "$was" "OK: " "the old trace checks OK"
is "$("$VT" check keep.lz4)" "$was" "the old trace, still whole, behind the hard link"
like "$("$VT" check keep.lz4)" "1 processes" "the old trace keeps its one process"

"$V" --mode=999 -o x.lz4 -- true 2>err; is "$?" 2 "a bad --mode: status 2"
is "$(cat err)" "vmrec: --mode=999: not an octal file mode" "a bad --mode: named"
mkdir dir.lz4
"$V" -o dir.lz4 -- true 2>err; is "$?" 2 "a directory as output: status 2"
is "$(cat err)" "vmrec: dir.lz4: not a regular file" "a directory as output: named"
ls | grep -c vmrec-store >count; is "$(cat count)" 0 "no store left behind"

# an empty -o: a usage error, and nothing of the program's runs or stays
"$V" -o '' -- sh -c 'echo ran' >out 2>err
is "$?:$(cat out):$(cat err)" "2::vmrec: -o: empty file name" "-o '': a usage error, named; the program not run"
is "$(ls -A | grep -c vmrec-store)" 0 "-o '': no store left behind"
# a store that cannot be made (a directory holds its name): a clear
# error, status 2, and the program never runs
sh -c 'mkdir "s.lz4.vmrec-store.$$" && exec "$1" -o s.lz4 -- sh -c "echo ran"' - "$V" >out 2>err
is "$?:$(cat out)" "2:" "no store: status 2, the program not run"
like "$(cat err)" "vmrec: cannot make the trace store $T/s.lz4.vmrec-store." "no store: named"
done_testing
