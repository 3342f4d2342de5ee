#!/bin/sh
# --format markdown shows names from the results files (metrics, the
# trace, kernels) as the text they are: never as markup, and a table
# keeps its columns whatever '|' or backticks they hold.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data
need_built "$R"
GOOD=$D/brk-6.1.json

# variant NAME BASE PYTHON : $T/NAME.json, BASE changed by PYTHON (on d)
variant() {
	python3 - "$2" "$T/$1.json" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}

variant evil "$GOOD" '
d["trace"] = "t<script>alert(1)</script>|`x`.vmt"
d["metrics"]["vmreplay.x<script>alert(2)</script>|`y`"] = [1, 2, 3, 4, 5]
d["kernel"] = "6.1<img src=x onerror=alert(3)>|*k*"'
cp "$T/evil.json" "$T/evil2.json"
"$R" --any-trace --all -f markdown "$T/evil.json" "$T/evil2.json" >"$T/md" 2>"$T/err"
is "$?" 0 "markdown of hostile names: exit 0"
# every '<' outside a code span is escaped, and every table row has as
# many cells as its header (CommonMark code spans, GFM tables)
python3 - "$T/md" <<'PY' >"$T/check"
import re, sys
bad = []
header = None
for n, line in enumerate(open(sys.argv[1]), 1):
    line = line.rstrip("\n")
    out, cells, i = [], 0, 0
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        m = re.match(r"`+", line[i:])
        if m:
            fence = m.group(0)
            j = i + len(fence)
            # the closing run of exactly the same length
            close = re.compile(r"(?<!`)" + fence + r"(?!`)")
            c = close.search(line, j)
            if c:
                code = line[j:c.start()]
                cells += len(re.findall(r"(?<!\\)\|", code))
                i = c.end()
                continue
            i = j
            continue
        if line[i] == "<" and re.match(r"<[A-Za-z/!?]", line[i:]):
            bad.append("line %d: markup outside code: %s" % (n, line[i:i + 20]))
        if line[i] == "|":
            cells += 1
        i += 1
    if line.startswith("|"):
        if header is None:
            header = cells
        elif cells != header:
            bad.append("line %d: %d cells, the table's header %d" % (n, cells, header))
    else:
        header = None
print("\n".join(bad) if bad else "clean")
PY
is "$(cat "$T/check")" clean "markdown: no markup from the files, tables keep their columns"
grep -q 'alert(2)' "$T/md"
ok $? "the hostile metric is still shown"
done_testing
