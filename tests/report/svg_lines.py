#!/usr/bin/env python3
"""svg_lines.py PAGE: are the plotted lines of vmreport's HTML page told
apart?  For each "VMAs after each event" figure (figure.vma-run) it checks
that every column with per-event results has a panel of its own (a
g.vma-panel with a rect.frame), that each panel holds exactly one line of
its own (polyline.vma) whose every point lies inside its frame, that no two
frames overlap, that the lines' colours differ from each other (up to the
palette's size) and from the grey reference line (polyline.ref), and that
each panel's title names its column.  For each bar chart (figure.merge-bars,
figure.vma-checkpoints) that no group of bars is 0 in every column.  Prints
one line per figure and "ok" or the first problem; exits 1 on a problem.
PAGE is HTML as vmreport writes it or as Chromium's --dump-dom gives it."""
import html.parser
import sys

PALETTE = 8


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.figures = []       # [class, [panels], [bar groups]]
        self.fig = None
        self.panel = None
        self.in_title = False
        self.text = None        # (x, text) of the bar chart's current label
        self.bars = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get('class', '')
        if tag == 'figure':
            self.fig = [cls, [], []]
            self.figures.append(self.fig)
        elif self.fig is None:
            return
        elif tag == 'g' and cls == 'vma-panel':
            self.panel = {'title': '', 'frame': None, 'lines': [], 'refs': []}
            self.fig[1].append(self.panel)
        elif tag == 'rect' and cls == 'frame' and self.panel is not None:
            x, y, w, h = (float(a[k]) for k in ('x', 'y', 'width', 'height'))
            self.panel['frame'] = (x, y, x + w, y + h)
        elif tag == 'polyline' and self.panel is not None:
            pts = [tuple(map(float, p.split(','))) for p in a.get('points', '').split()]
            (self.panel['lines'] if cls == 'vma' else self.panel['refs']).append((a.get('stroke'), pts))
        elif tag == 'tspan' and self.panel is not None and not self.panel['title']:
            self.in_title = True
        elif tag == 'text' and self.fig[0] in ('merge-bars', 'vma-checkpoints'):
            self.text = (a.get('x'), a.get('text-anchor'))
        elif tag == 'rect' and self.fig[0] in ('merge-bars', 'vma-checkpoints') and self.bars is not None:
            self.bars[1].append(float(a.get('width', 0)))

    def handle_data(self, data):
        if self.in_title:
            self.panel['title'] += data
        elif self.text and self.text[1] == 'end' and data.strip():
            self.bars = [data.strip(), []]      # a group's label starts its bars
            self.fig[2].append(self.bars)

    def handle_endtag(self, tag):
        if tag == 'tspan':
            self.in_title = False
        elif tag == 'g':
            self.panel = None
        elif tag == 'text':
            self.text = None
        elif tag == 'figure':
            self.fig = None
            self.bars = None


def check_vma(panels):
    drawn = [p for p in panels if p['lines'] or p['frame']]
    if not drawn:
        return 'no panel with a line'
    colours = []
    for k, p in enumerate(drawn):
        if len(p['lines']) != 1:
            return f'panel {p["title"]!r}: {len(p["lines"])} lines of its own, not 1'
        if not p['frame']:
            return f'panel {p["title"]!r}: no frame'
        x0, y0, x1, y1 = p['frame']
        colour, pts = p['lines'][0]
        out = [q for q in pts if not (x0 - 0.5 <= q[0] <= x1 + 0.5 and y0 - 0.5 <= q[1] <= y1 + 0.5)]
        if not pts or out:
            return f'panel {p["title"]!r}: {len(out)} of {len(pts)} points outside its frame'
        for q in drawn[:k]:
            if q['frame'][1] < y1 and y0 < q['frame'][3]:
                return f'panels {q["title"]!r} and {p["title"]!r} overlap'
        for ref, _ in p['refs']:
            if ref == colour:
                return f'panel {p["title"]!r}: its line has the reference line\'s colour'
        if not p['title'].startswith('#'):
            return f'a panel without its column\'s title: {p["title"]!r}'
        colours.append(colour)
    if len(colours) <= PALETTE and len(set(colours)) != len(colours):
        return f'two lines share a colour: {colours}'
    return f'ok: {len(drawn)} panels, a line each in its own frame, colours {" ".join(colours)}'


def check_bars(groups):
    empty = [g[0] for g in groups if all(w <= 0.5 for w in g[1])]
    if empty:
        return f'groups of empty bars: {" ".join(empty)}'
    return f'ok: {len(groups)} groups, none 0 in every column'


def main():
    page = Page()
    page.feed(open(sys.argv[1], encoding='utf-8').read())
    bad = 0
    for cls, panels, groups in page.figures:
        if cls == 'vma-run':
            res = check_vma(panels)
        elif cls in ('merge-bars', 'vma-checkpoints'):
            res = check_bars(groups)
        else:
            continue
        bad |= not res.startswith('ok')
        print(f'{cls}: {res}')
    return bad


if __name__ == '__main__':
    sys.exit(main())
