#!/bin/sh
# The HTML pages in headless Chromium: they load without errors, the table
# and plots are in the DOM, and the demo's page (real make demo results:
# host, simulator and QEMU columns) fits a 1280 and a 1920 px wide window:
# nothing wider than the window, no table box that must be scrolled; every
# plotted line can be told from the others, in the SVG and on a screenshot.
# The screenshots stay in $B/tests/report/ to be looked at.  Installs Debian's
# chromium when run as root (unless VMREC_NO_INSTALL is set); otherwise
# skips, before its first check.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data X=tests/report/data/demo
need_built "$R"   # before installing a browser for a build that is not there

if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && [ -z "${VMREC_NO_INSTALL:-}" ]; then
	sh "$S/mk/deps.sh" chromium >&2
fi
if ! command -v chromium >/dev/null 2>&1; then
	[ -n "${VMREC_NO_INSTALL:-}" ] && skip_all "chromium is not installed (VMREC_NO_INSTALL is set)"
	skip_all "chromium is not installed and cannot be (not root): apt-get install chromium"
fi

"$R" -f html -o "$T/kernels.html" "$D/brk-6.1.json" "$D/brk-6.8.json" "$D/brk-6.12.json"
ok $? "kernels page written"
"$R" -f html --explain -o "$T/sim.html" "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" \
	"$D/churn-sim-6.8-noevents.json" 2>/dev/null
ok $? "simulator page written"
# as mk/demo.sh writes build/demo/report.html: a section per trace, every column
"$R" -f html --by-trace --explain \
	--label "host $(uname -r),sim:6.1,sim:6.8,real-6.1,real-6.12,host $(uname -r),sim:6.1,sim:6.8,real-6.1,real-6.12" \
	-o "$T/demo.html" "$X/python3-json-host.json" "$X/python3-json-sim6.1.json" "$X/python3-json-sim6.8.json" \
	"$X/python3-json-vm6.1.json" "$X/python3-json-vm6.12.json" "$X/python3-threads-host.json" \
	"$X/python3-threads-sim6.1.json" "$X/python3-threads-sim6.8.json" "$X/python3-threads-vm6.1.json" \
	"$X/python3-threads-vm6.12.json"
ok $? "demo page written"

browse() { # PAGE ARGS... : Chromium's console log in $T/PAGE.log
	page=$1; shift
	rm -rf "$T/prof"
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
is "$(grep -c '<polyline class="vma"' "$T/sim.dom")" 2 "simulator: VMA count over the run for the two inputs with per-event results"
grep -q '(no per-event results)</tspan>' "$T/sim.dom"
ok $? "simulator: the input without them is named"
python3 "$S/tests/report/svg_lines.py" "$T/sim.dom" >"$T/sim.lines"
ok $? "simulator: every plotted line told apart, no empty bars ($(tr '\n' ';' <"$T/sim.lines"))"
grep -q '<pre id="explain">explain: sim:6.8 against sim:6.1 (#2, tests/report/data/churn-sim-6.8.json): 7 of 13 events differ' "$T/sim.dom"
ok $? "simulator: --explain in the page"

# every line of the demo page's plots told apart, in the page as Chromium
# reads it (svg_lines.py: a panel and a frame per column, each line inside
# its own, colours apart; no group of bars 0 everywhere)
browse demo --dump-dom >"$T/demo.dom"
python3 "$S/tests/report/svg_lines.py" "$T/demo.dom" >"$T/demo.lines"
ok $? "demo: every plotted line told apart, no empty bars"
sed 's/^/# /' "$T/demo.lines"
is "$(grep -c '^vma-run: ok: 5 panels' "$T/demo.lines")" 2 "demo: a panel for each of the 5 columns of each trace"
# and seen so: a screenshot of the first trace's VMA plot has each
# column's colour on hundreds of pixels (lines drawn over each other left
# 100, their legend's swatch); it stays beside the others to be looked at
mkdir -p "$B/tests/report"
python3 - "$T/demo.html" "$T/vma.html" <<'EOF'
import re, sys
page = open(sys.argv[1], encoding='utf-8').read()
style = re.search(r'<style>.*?</style>', page, re.S).group(0)
fig = re.search(r'<figure class="vma-run">.*?</figure>', page, re.S).group(0)
open(sys.argv[2], 'w', encoding='utf-8').write('<!doctype html><html><head>' + style + '</head><body>' + fig + '</body></html>')
EOF
shot=$B/tests/report/vma-run.png
rm -f "$shot"
browse vma --window-size=800,640 --screenshot="$shot" >/dev/null
colours=$(sed -n 's/.*<g class="vma-panel"><text [^>]*><tspan fill="\(#[0-9a-f]*\)".*/\1/p' "$T/vma.html" | tr '\n' ' ')
# shellcheck disable=SC2086
python3 "$S/tests/report/png_colours.py" "$shot" $colours >"$T/pixels" 2>&1
is "$(awk '$2 >= 250 { n++ } END { print n + 0 }' "$T/pixels") $(wc -l <"$T/pixels" | tr -d ' ')" "5 5" \
   "demo: the screenshot shows each of the 5 lines in its colour ($(tr '\n' ' ' <"$T/pixels"): $shot)"

# layout: a copy of the demo page measures itself (the page has no script)
sed 's|</body></html>|<script>{const d = document.documentElement, out = ["page " + d.scrollWidth + " " + d.clientWidth];\
document.querySelectorAll(".wide").forEach((b, k) => out.push("box " + k + " " + b.scrollWidth + " " + b.clientWidth));\
const p = document.createElement("pre"); p.id = "layout"; p.textContent = out.join("\\n"); document.body.appendChild(p);}</script></body></html>|' \
	"$T/demo.html" >"$T/measure.html"
mkdir -p "$B/tests/report"
for w in 1280 1920; do
	browse measure --window-size=$w,1000 --dump-dom >"$T/measure-$w.dom"
	is "$(grep -Ec 'Uncaught|CONSOLE' "$T/measure.log")" 0 "demo at $w px: no console errors"
	sed -n '/<pre id="layout">/,/<\/pre>/p' "$T/measure-$w.dom" |
		grep -oE '(page|box [0-9]+) [0-9]+ [0-9]+' >"$T/layout-$w"
	awk '{n++; if ($(NF-1) > $NF + 1) { bad++; print } } END { exit !(n >= 5 && !bad) }' \
		"$T/layout-$w" >"$T/bad-$w"
	ok $? "demo at $w px: nothing wider than the window, no table box to scroll ($(grep -c . "$T/layout-$w") measured)"
	[ -s "$T/bad-$w" ] && diag "too wide (scrollWidth clientWidth): $(tr '\n' ';' <"$T/bad-$w")"
	shot=$B/tests/report/demo-$w.png
	rm -f "$shot"
	browse demo --window-size=$w,2400 --screenshot="$shot" >/dev/null
	size=$(wc -c <"$shot" 2>/dev/null || echo 0)
	ok "$([ "$size" -gt 50000 ]; echo $?)" "demo at $w px: a screenshot, not blank ($size bytes: $shot)"
done

done_testing
