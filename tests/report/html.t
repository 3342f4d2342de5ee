#!/bin/sh
# --format html without a browser: one self-contained page (nothing
# fetched, no script; links only within the page), a section per trace
# with --by-trace, the flags and marks of the table, and latency plots
# only of columns that timed a real kernel.  html-browser.t loads the
# pages in Chromium and looks at their layout.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data

"$R" -f html -o "$T/kernels.html" "$D/brk-6.1.json" "$D/brk-6.8.json" "$D/brk-6.12.json"
is "$?" 0 "kernels page written"
"$R" -f html --explain -o "$T/sim.html" "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" "$D/churn-sim-6.8-noevents.json"
is "$?" 0 "simulator page written"
"$R" -f html --by-trace -o "$T/both.html" "$D/brk-6.1.json" "$D/churn-sim-6.1.json" "$D/brk-6.8.json" "$D/churn-sim-6.8.json"
is "$(grep -c '^<section id="trace-[12]">' "$T/both.html")" 2 "--by-trace: one page, a section per trace"
is "$(grep -o '<a href="#trace-[0-9]*">' "$T/both.html" | tr '\n' ' ')" '<a href="#trace-1"> <a href="#trace-2"> ' \
   "--by-trace: links to each section"
# the demo's page: real results of make demo, host, simulator and QEMU columns
X=$D/demo
"$R" -f html --by-trace --explain --label "host,sim:6.1,sim:6.8,real-6.1,real-6.12,host,sim:6.1,sim:6.8,real-6.1,real-6.12" \
	-o "$T/demo.html" "$X/python3-json-host.json" "$X/python3-json-sim6.1.json" "$X/python3-json-sim6.8.json" \
	"$X/python3-json-vm6.1.json" "$X/python3-json-vm6.12.json" "$X/python3-threads-host.json" \
	"$X/python3-threads-sim6.1.json" "$X/python3-threads-sim6.8.json" "$X/python3-threads-vm6.1.json" \
	"$X/python3-threads-vm6.12.json"
is "$?" 0 "demo page written"

for p in kernels sim both demo; do
	n=$(grep -Eoi '<script|<link|<img|<iframe|src=|href="[^#]|url\(|@import' "$T/$p.html" | wc -l)
	is "$n" 0 "$p: no script and no external resource"
	is "$(grep -o 'http[s]*://[^"]*' "$T/$p.html" | sort -u)" "http://www.w3.org/2000/svg" "$p: the only URL is the SVG namespace"
done

# the table: %change and flag in one cell, metric names that may break
grep -q '<td class="name">vmreplay.<wbr>brk.<wbr>ops_per_sec</td>' "$T/kernels.html"
ok $? "metric names break after their dots"
grep -q '<td class="chg-cell reg">-8.3%<span class="flag">regression q&lt;0.001</span></td>' "$T/kernels.html"
ok $? "a regression: %change and its flag in one cell"
is "$(grep -c '<p class="note"><b>note:</b> column #2: 1/2 checkpoints matched' "$T/demo.html")" 1 \
   "demo: the note on sim:6.1's layout of python3-threads"
grep -q '<p class="dim" id="statistic">statistic: %change of the means.' "$T/kernels.html"
ok $? "the statistic under the table"

# latency: only columns that timed a real kernel, and each plot says which
python3 - "$T/demo.html" >"$T/lat" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
figs = re.findall(r'<figure class="latency">(.*?)</figure>', page, re.S)
labels = set()
for f in figs:
    labels |= set(re.findall(r'text-anchor="end">([^<]*)</text>', f))
caps = set(re.findall(r'<figcaption>[^<]*?(Columns shown:[^<]*)</figcaption>', "".join(figs)))
print(len(figs), sorted(labels))
for c in sorted(caps):
    print(c)
PY
is "$(cat "$T/lat")" "9 ['host']
Columns shown: #1 host. Not shown: #2 sim:6.1, #3 sim:6.8 (simulator: no kernel timings); #4 real-6.1, #5 real-6.12 (emulated guest: timings not comparable)." \
   "demo: 9 latency plots, of the host only, each naming what it leaves out"
is "$(python3 -c '
import re, sys
caps = re.findall(r"<figcaption>(.*?)</figcaption>", open(sys.argv[1]).read(), re.S)
print(len(caps), sum("Columns shown:" in c for c in caps))' "$T/demo.html")" "15 15" "demo: every plot says which columns it shows"

done_testing
