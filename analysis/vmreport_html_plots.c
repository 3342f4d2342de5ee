/* vmreport_html_plots.c - the SVG plots of a comparison: latency
 * percentiles per system call (log scale), the VMA count over the run, and
 * grouped bars of VMA checkpoints and merge outcomes.  Latencies are
 * plotted only for columns that timed a real kernel: a simulator has no
 * kernel timings and an emulated guest's are not comparable with anything.
 * Every caption names the columns its plot shows. */
#include <math.h>
#include <string.h>

#include "analysis/vmreport_explain.h"
#include "analysis/vmreport_format.h"
#include "analysis/vmreport_html_plots.h"
#include "analysis/vmreport_html_shared.h"

#define PLOT_W 720
#define LEFT 170     /* room for labels */
#define RIGHT 30

/* The caption's list of the columns shown, then of those left out,
 * grouped by why. */
static void columns_caption(FILE *f, const struct rep_table *t, bool (*shown)(const struct rep_table *, size_t),
			    const char *(*why_not)(const struct rep_table *, size_t))
{
	fputs(" Columns shown:", f);
	for (size_t i = 0, k = 0; i < t->nin; i++) {
		if (!shown(t, i))
			continue;
		fprintf(f, "%s #%zu ", k++ ? "," : "", i + 1);
		rep_html_esc(f, t->labels[i]);
		if (t->cols[i].fidelity == REP_UNFAITHFUL)
			fputs(" (its replay did not match its recording)", f);
	}
	fputs(".", f);
	bool first = true;
	for (size_t i = 0; i < t->nin; i++) {
		const char *why = why_not(t, i);
		bool earlier = false;
		for (size_t j = 0; j < i && !earlier; j++)
			earlier = !shown(t, j) && strcmp(why_not(t, j), why) == 0;
		if (shown(t, i) || earlier)
			continue;
		fputs(first ? " Not shown:" : ";", f);
		first = false;
		for (size_t j = i, k = 0; j < t->nin; j++) {
			if (shown(t, j) || strcmp(why_not(t, j), why))
				continue;
			fprintf(f, "%s #%zu ", k++ ? "," : "", j + 1);
			rep_html_esc(f, t->labels[j]);
		}
		fprintf(f, " (%s)", why);
	}
	if (!first)
		fputs(".", f);
}

/* ---- latency: box p50..p99, tick at p90, whiskers min..max, log x ---- */

static const char *const pct_names[] = { "min", "p50", "p90", "p99", "max" };
#define NPCT 5

static bool real_timings(const struct rep_table *t, size_t i)
{
	return !t->in[i].sim && !rep_emulated(&t->in[i]);
}

static const char *no_timings(const struct rep_table *t, size_t i)
{
	return t->in[i].sim ? "simulator: no kernel timings" :
	       "emulated guest: timings not comparable";
}

static bool latency_of(const struct rep_table *t, const char *sys, size_t i, double out[NPCT])
{
	char name[160];
	if (!real_timings(t, i))
		return false;
	for (int k = 0; k < NPCT; k++) {
		snprintf(name, sizeof(name), "vmreplay.%s.latency_ns.%s", sys, pct_names[k]);
		const struct rep_metric *m = rep_metric_find(&t->in[i], name);
		struct rep_summary s;
		if (!m || !m->n)
			return false;
		rep_summarize(m->v, m->n, &s);
		out[k] = s.mean > 0 ? s.mean : 1;	/* log scale */
	}
	return true;
}

static double xlog(double v, double lo, double hi)
{
	return LEFT + (PLOT_W - LEFT - RIGHT) * (log10(v) - lo) / (hi - lo);
}

static void latency_plot(FILE *f, const struct rep_table *t, const char *sys)
{
	double p[NPCT], lo = INFINITY, hi = -INFINITY;
	size_t rows = 0;
	for (size_t i = 0; i < t->nin; i++) {
		if (!real_timings(t, i))
			continue;
		rows++;
		if (!latency_of(t, sys, i, p))
			continue;
		lo = fmin(lo, log10(p[0]));
		hi = fmax(hi, log10(p[4]));
	}
	if (!isfinite(lo))
		return;
	lo = floor(lo);
	hi = fmax(ceil(hi), lo + 1);
	int h = 30 + 30 * (int)rows + 30;
	fprintf(f, "<figure class=\"latency\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" role=\"img\" aria-label=\"%s latency\">\n", PLOT_W, h, sys);
	fprintf(f, "<text x=\"4\" y=\"16\" style=\"font-weight:600\">%s latency (ns, log scale)</text>\n", sys);
	for (int d = (int)lo; d <= (int)hi; d++) {
		double x = xlog(pow(10, d), lo, hi);
		fprintf(f, "<line x1=\"%.1f\" y1=\"26\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">1e%d</text>\n",
			x, x, h - 24, x, h - 8, d);
	}
	for (size_t i = 0, row = 0; i < t->nin; i++) {
		if (!real_timings(t, i))
			continue;
		int y = 40 + 30 * (int)row++;
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LEFT - 8, y + 4);
		rep_html_esc(f, t->labels[i]);
		fputs("</text>\n", f);
		if (!latency_of(t, sys, i, p)) {
			fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"dim\">not in these results</text>\n",
				LEFT, y + 4);
			continue;
		}
		double x[NPCT];
		for (int k = 0; k < NPCT; k++)
			x[k] = xlog(p[k], lo, hi);
		const char *c = rep_html_colour(i);
		fprintf(f, "<g stroke=\"%s\"><title>min %.0f, p50 %.0f, p90 %.0f, p99 %.0f, max %.0f ns</title>"
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
			"<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" fill=\"%s\" fill-opacity=\"0.25\"/>"
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke-width=\"3\"/>"
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke-dasharray=\"2,2\"/>"
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/></g>\n",
			c, p[0], p[1], p[2], p[3], p[4],
			x[0], y, x[4], y, x[1], y - 8, fmax(x[3] - x[1], 1), c,
			x[1], y - 8, x[1], y + 8, x[2], y - 8, x[2], y + 8,
			x[0], y - 5, x[0], y + 5, x[4], y - 5, x[4], y + 5);
	}
	fputs("</svg><figcaption>Box: p50 (thick) to p99, dashed: p90, whiskers: min and max; "
	      "means over the runs.", f);
	columns_caption(f, t, real_timings, no_timings);
	fputs("</figcaption></figure>\n", f);
}

static void latency_section(FILE *f, const struct rep_table *t)
{
	static const char suffix[] = ".latency_ns.p50";
	bool any = false, real = false;
	fputs("<h2>Latency per system call</h2>\n", f);
	for (size_t i = 0; i < t->nin; i++)
		real |= real_timings(t, i);
	for (size_t r = 0; real && r < t->nrows; r++) {
		const char *name = t->rows[r].name;
		size_t n = strlen(name), sl = strlen(suffix);
		if (strncmp(name, "vmreplay.", 9) || n <= 9 + sl || strcmp(name + n - sl, suffix))
			continue;
		char sys[64];
		snprintf(sys, sizeof(sys), "%.*s", (int)(n - 9 - sl), name + 9);
		latency_plot(f, t, sys);
		any = true;
	}
	if (!real)
		fputs("<p class=\"dim\">No column timed a real kernel (simulator or emulated guest): "
		      "no latencies to plot.</p>\n", f);
	else if (!any)
		fputs("<p class=\"dim\">No latency percentiles in these results.</p>\n", f);
}

/* ---- VMA count over the run: small multiples ------------------------
 * One panel per column, one under the other on the same scales, so no line
 * can hide another however alike they are: each column's line in its
 * colour, the first column's in grey behind it for reference, and under it
 * a tick at each event whose count differs from the first column's. */

#define MAX_POINTS 800
#define PANEL_H 60      /* a panel's plot height */
#define PANEL_TITLE 22  /* room above it for its title */
#define PANEL_X0 60     /* room left of it for the counts */
#define REF_COLOUR "#c4c4c4"

static bool has_events(const struct rep_table *t, size_t i)
{
	return t->in[i].has_events;
}

static const char *no_events(const struct rep_table *t, size_t i)
{
	(void)t;
	(void)i;
	return "no per-event results: vmreplay --per-event";
}

static void vma_line(FILE *f, const struct rep_results *r, const char *colour, const char *cls,
		     double xs, double ylo, double ys, int ybase)
{
	size_t n = r->nevents, per = n > MAX_POINTS ? (n + MAX_POINTS - 1) / MAX_POINTS : 1;
	fprintf(f, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
		cls, colour);
	struct rep_cursor c;
	rep_cursor_open(&c, r);
	const struct rep_event *ev = rep_cursor_next(&c);
	while (ev) {	/* min and max of each bucket keep the spikes */
		long long mn = -1, mx = -1, first = ev->i;
		for (size_t j = 0; j < per && ev; j++, ev = rep_cursor_next(&c)) {
			long long v = ev->vma_count;
			if (v < 0)
				continue;
			if (mn < 0 || v < mn)
				mn = v;
			if (v > mx)
				mx = v;
		}
		if (mn < 0)
			continue;
		double x = PANEL_X0 + xs * (double)first;
		fprintf(f, "%.1f,%.1f %.1f,%.1f ", x, ybase - ys * (mn - ylo), x, ybase - ys * (mx - ylo));
	}
	rep_cursor_close(&c);
	fputs("\"/>\n", f);
}

/* Ticks under a panel at the events where a column parts from the first
 * as --explain finds them (another outcome, or another change of its
 * process's VMA count; not the later events that only carry a difference
 * on), one per pixel column. */
struct ticks {
	FILE *f;
	double xs;
	int y;
	long last_px;
	size_t n;
};

static void tick(const struct rep_divergence *d, void *arg)
{
	struct ticks *k = arg;
	const struct rep_event *ev = d->other ? d->other : d->base;
	if (!d->layout_differs)
		return;
	long px = lround(PANEL_X0 + k->xs * (double)ev->i);
	if (px != k->last_px)
		fprintf(k->f, "M%ld,%dv6", px, k->y);
	k->last_px = px;
	k->n++;
}

static void vma_over_run(FILE *f, const struct rep_table *t)
{
	double xmax = 1, ylo = INFINITY, yhi = -INFINITY;
	for (size_t i = 0; i < t->nin; i++) {
		struct rep_cursor c;
		rep_cursor_open(&c, &t->in[i]);
		for (const struct rep_event *ev; (ev = rep_cursor_next(&c));) {
			if (ev->vma_count < 0)
				continue;
			xmax = fmax(xmax, (double)ev->i);
			ylo = fmin(ylo, (double)ev->vma_count);
			yhi = fmax(yhi, (double)ev->vma_count);
		}
		rep_cursor_close(&c);
	}
	if (!isfinite(ylo))
		return;
	if (yhi == ylo)
		yhi = ylo + 1;
	int h = 30;
	for (size_t i = 0; i < t->nin; i++)
		h += t->in[i].has_events ? PANEL_TITLE + PANEL_H + 10 : PANEL_TITLE;
	h += 24;
	double xs = (PLOT_W - PANEL_X0 - RIGHT) / xmax, ys = PANEL_H / (yhi - ylo);
	fprintf(f, "<figure class=\"vma-run\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" role=\"img\" aria-label=\"VMA count over the run\">\n", PLOT_W, h);
	fputs("<text x=\"4\" y=\"16\" style=\"font-weight:600\">VMAs after each event</text>\n", f);
	int y = 30;
	for (size_t i = 0; i < t->nin; i++) {
		const struct rep_results *r = &t->in[i];
		const char *c = rep_html_colour(i);
		int top = y + PANEL_TITLE, bottom = top + PANEL_H;
		fprintf(f, "<g class=\"vma-panel\"><text x=\"%d\" y=\"%d\"><tspan fill=\"%s\" "
			"style=\"font-weight:600\">#%zu ", PANEL_X0, y + 15, c, i + 1);
		rep_html_esc(f, t->labels[i]);
		fputs("</tspan>", f);
		if (!r->has_events) {
			fputs(" <tspan class=\"dim\">(no per-event results)</tspan></text></g>\n", f);
			y += PANEL_TITLE;
			continue;
		}
		fputs("</text>\n", f);
		fprintf(f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
			"fill=\"none\" stroke=\"#ddd\"/>\n", PANEL_X0, top, PLOT_W - RIGHT - PANEL_X0, PANEL_H);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text>"
			"<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text>\n",
			PANEL_X0 - 6, bottom, ylo, PANEL_X0 - 6, top + 9, yhi);
		bool ref = i && t->in[0].has_events;
		if (ref)
			vma_line(f, &t->in[0], REF_COLOUR, "ref", xs, ylo, ys, bottom);
		vma_line(f, r, c, "vma", xs, ylo, ys, bottom);
		struct ticks k = { f, xs, bottom + 2, -1, 0 };
		if (ref) {
			fprintf(f, "<path class=\"differs\" stroke=\"%s\" stroke-width=\"1.5\" d=\"", c);
			bool compared = rep_explain_each(t, i, tick, &k);
			fprintf(f, "\"/>\n<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"dim\">",
				PLOT_W - RIGHT, y + 15);
			if (!compared)
				fputs("not comparable event by event with #1", f);
			else if (k.n)
				fprintf(f, "parts from #1 at %zu event%s (ticks)", k.n, k.n == 1 ? "" : "s");
			else
				fputs("as #1 at every event", f);
			fputs("</text>\n", f);
		}
		fputs("</g>\n", f);
		y = bottom + 10;
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\">event 0</text><text x=\"%d\" y=\"%d\" "
		"text-anchor=\"end\">event %.0f</text>\n", PANEL_X0, y + 14, PLOT_W - RIGHT, y + 14, xmax);
	fputs("</svg><figcaption>VMA count of the replayed address space after each event "
	      "(<code>vmreplay --per-event</code>), a panel per column on the same scales", f);
	if (t->in[0].has_events)
		fputs("; grey: #1, behind each other column, whose ticks mark the events where it parts "
		      "from #1 (another merge outcome, or another change of the VMA count: "
		      "<code>vmreport --explain</code> lists them)", f);
	fputs(".", f);
	columns_caption(f, t, has_events, no_events);
	fputs("</figcaption></figure>\n", f);
}

static bool any_column(const struct rep_table *t, size_t i)
{
	(void)t;
	(void)i;
	return true;
}

static const char *never(const struct rep_table *t, size_t i)
{
	(void)t;
	(void)i;
	return "";
}

/* A row whose bars would all be empty: 0 (or not measured) in every column. */
static bool zero_row(const struct rep_table *t, const struct rep_row *row)
{
	for (size_t i = 0; i < t->nin; i++)
		if (row->cells[i].state == REP_CELL_OK && row->cells[i].s.mean != 0)
			return false;
	return true;
}

/* Horizontal grouped bars, one group per metric with PREFIX that is not 0
 * everywhere, one bar per input; the value is written at the end of each
 * bar, and the caption names the metrics left out. */
static void bars(FILE *f, const struct rep_table *t, const char *prefix, const char *title,
		 const char *cls)
{
	size_t pl = strlen(prefix), groups = 0, zeros = 0;
	double vmax = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		if (strncmp(t->rows[r].name, prefix, pl))
			continue;
		if (zero_row(t, &t->rows[r])) {
			zeros++;
			continue;
		}
		groups++;
		for (size_t i = 0; i < t->nin; i++)
			if (t->rows[r].cells[i].state == REP_CELL_OK)
				vmax = fmax(vmax, t->rows[r].cells[i].s.mean);
	}
	if (!groups && !zeros)
		return;
	if (!groups) {
		fprintf(f, "<p class=\"dim\">%s: 0 in every column.</p>\n", title);
		return;
	}
	if (vmax <= 0)
		vmax = 1;
	const int bh = 12, gap = 10;
	int gh = (int)t->nin * bh + gap, h = 30 + (int)groups * gh + 10;
	double span = PLOT_W - LEFT - RIGHT - 60;
	fprintf(f, "<figure class=\"%s\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" role=\"img\" aria-label=\"%s\">\n", cls, PLOT_W, h, title);
	fprintf(f, "<text x=\"4\" y=\"16\" style=\"font-weight:600\">%s</text>\n", title);
	int y = 30;
	for (size_t r = 0; r < t->nrows; r++) {
		const struct rep_row *row = &t->rows[r];
		if (strncmp(row->name, prefix, pl) || zero_row(t, row))
			continue;
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LEFT - 8, y + gh / 2);
		rep_html_esc(f, row->name + pl);
		fputs("</text>\n", f);
		for (size_t i = 0; i < t->nin; i++, y += bh) {
			const struct rep_cell *c = &row->cells[i];
			char v[48];
			if (c->state != REP_CELL_OK) {
				fprintf(f, "<text x=\"%d\" y=\"%d\" style=\"font-size:10px\">%s</text>\n",
					LEFT + 2, y + bh - 2, rep_cell_placeholder(c));
				continue;
			}
			double w = span * c->s.mean / vmax;
			if (c->s.mean == floor(c->s.mean))
				snprintf(v, sizeof(v), "%.0f", c->s.mean);
			else
				rep_fmt_value(v, sizeof(v), c->s.mean);
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>"
				"<text x=\"%.1f\" y=\"%d\" style=\"font-size:10px\">%s</text>\n",
				LEFT, y + 1, fmax(w, 0.5), bh - 2, rep_html_colour(i), LEFT + fmax(w, 0.5) + 4,
				y + bh - 2, v);
		}
		y += gap;
	}
	fputs("</svg><figcaption>Means over the runs; colours as in the table of inputs.", f);
	for (size_t r = 0, k = 0; r < t->nrows; r++) {
		const struct rep_row *row = &t->rows[r];
		if (strncmp(row->name, prefix, pl) || !zero_row(t, row))
			continue;
		fputs(k++ ? ", " : " 0 in every column, not drawn: ", f);
		rep_html_esc(f, row->name + pl);
	}
	if (zeros)
		fputs(".", f);
	columns_caption(f, t, any_column, never);
	fputs("</figcaption></figure>\n", f);
}

void rep_html_plots(FILE *f, const struct rep_table *t)
{
	latency_section(f, t);
	fputs("<h2>VMA count over the run</h2>\n", f);
	vma_over_run(f, t);
	bars(f, t, "vmreplay.vma_count.", "VMA counts at the checkpoints", "vma-checkpoints");
	fputs("<h2>Merge outcomes</h2>\n", f);
	bars(f, t, "vmreplay.merge.", "Merge outcome of every operation, per input", "merge-bars");
}
