#!/bin/sh
# --format html: one self-contained page (nothing fetched, no script) that
# headless Chromium loads without errors, with the table and the SVG plots.
# Installs Debian's chromium when run as root; skips only where it cannot.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data

"$R" -f html -o "$T/kernels.html" "$D/brk-6.1.json" "$D/brk-6.8.json" "$D/brk-6.12.json"
is "$?" 0 "kernels page written"
"$R" -f html --explain -o "$T/sim.html" "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" "$D/churn-sim-6.8-noevents.json"
is "$?" 0 "simulator page written"

"$R" -f html --by-trace -o "$T/both.html" "$D/brk-6.1.json" "$D/churn-sim-6.1.json" "$D/brk-6.8.json" "$D/churn-sim-6.8.json"
is "$(grep -c '^<section id="trace-[12]">' "$T/both.html")" 2 "--by-trace: one page, a section per trace"

for p in kernels sim both; do
	n=$(grep -Eoi '<script|<link|<img|<iframe|src=|href=|url\(|@import' "$T/$p.html" | wc -l)
	is "$n" 0 "$p: no script and no external resource"
	is "$(grep -o 'http[s]*://[^"]*' "$T/$p.html" | sort -u)" "http://www.w3.org/2000/svg" "$p: the only URL is the SVG namespace"
done

if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	sh "$S/mk/deps.sh" chromium >&2
fi
command -v chromium >/dev/null 2>&1 || skip_all "chromium is not installed and cannot be (not root): apt-get install chromium"

browse() { # PAGE ARGS... : Chromium's console log in $T/PAGE.log
	page=$1; shift
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$T/prof" --enable-logging=stderr "$@" "file://$T/$page.html" 2>"$T/$page.log"
}

browse kernels --dump-dom >"$T/kernels.dom"
is "$?" 0 "kernels: chromium loads the page"
is "$(grep -Ec 'Uncaught|CONSOLE' "$T/kernels.log")" 0 "kernels: no console errors"
grep -q '<table class="cmp" id="comparison">' "$T/kernels.dom"
ok $? "kernels: the comparison table is in the DOM"
is "$(grep -c '<tr><td class="name">vmreplay\.' "$T/kernels.dom")" 12 "kernels: its 12 rows that differ"
is "$(grep -o '<figure class="[a-z-]*"><svg' "$T/kernels.dom" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
   ' 3 <figure class="latency"><svg; 1 <figure class="merge-bars"><svg; 1 <figure class="vma-checkpoints"><svg;' \
   "kernels: a latency plot per system call, VMA checkpoints, merge bars"
grep -q '<text x="162" y="74" text-anchor="end">6.8.0-50-generic</text>' "$T/kernels.dom"
ok $? "kernels: the plots are labelled with the kernels"

browse sim --dump-dom >"$T/sim.dom"
is "$(grep -Ec 'Uncaught|CONSOLE' "$T/sim.log")" 0 "simulator: no console errors"
is "$(grep -c '<polyline' "$T/sim.dom")" 2 "simulator: VMA count over the run for the two inputs with per-event results"
grep -q '(no per-event results)</text>' "$T/sim.dom"
ok $? "simulator: the input without them is named"
grep -q '<pre id="explain">explain: sim:6.8 against sim:6.1 (#2, tests/report/data/churn-sim-6.8.json): 7 of 13 events differ' "$T/sim.dom"
ok $? "simulator: --explain in the page"

browse kernels --window-size=1200,2400 --screenshot="$T/kernels.png" >/dev/null
size=$(wc -c <"$T/kernels.png" 2>/dev/null || echo 0)
ok "$([ "$size" -gt 50000 ]; echo $?)" "kernels: the screenshot is not blank ($size bytes of PNG)"

done_testing
