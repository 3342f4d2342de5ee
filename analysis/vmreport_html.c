/* vmreport_html.c - one self-contained page: inline CSS, SVG drawn here,
 * no script and nothing fetched.  Plots: latency percentiles per system
 * call (log scale), VMA count over the run, merge outcomes per input. */
#include "analysis/vmreport_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/vmreport_explain.h"
#include "analysis/vmreport_format.h"

#define PLOT_W 720
#define LEFT 170     /* room for labels */
#define RIGHT 30

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
};
#define COLOUR(i) palette[(i) % (sizeof(palette) / sizeof(palette[0]))]

static const char css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:1500px;color:#222;padding:0 1em}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"th,td{padding:.2em .6em;border-bottom:1px solid #e4e4e4;text-align:right;white-space:nowrap}"
	"th{background:#f3f3f3}td.name,th.name,td.l{text-align:left}"
	"td.name{font-family:ui-monospace,monospace}"
	".imp{color:#0a7a20;font-weight:600}.reg{color:#c01818;font-weight:600}.chg{color:#a06000;font-weight:600}"
	".dim{color:#888}.sw{display:inline-block;width:.9em;height:.9em;margin-right:.4em;vertical-align:-.1em}"
	"figure{margin:1em 0}figcaption{color:#555;font-size:.9em}"
	"svg text{font:12px system-ui,sans-serif;fill:#333}"
	"pre{background:#f6f6f6;padding:.8em;overflow-x:auto}.wide{overflow-x:auto}";

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static const char *const verdict_class[] = {
	[REP_SAME] = "", [REP_IMPROVEMENT] = "imp", [REP_REGRESSION] = "reg", [REP_CHANGED] = "chg",
};

static void inputs_table(FILE *f, const struct rep_table *t)
{
	char host[256];
	fputs("<div class=\"wide\"><table class=\"inputs\"><tr><th>#</th><th class=\"name\">label</th><th class=\"name\">"
	      "target</th><th>runs</th><th class=\"name\">host</th><th class=\"name\">results</th>"
	      "<th class=\"name\">reproduce</th></tr>\n", f);
	for (size_t i = 0; i < t->nin; i++) {
		const struct rep_results *r = &t->in[i];
		rep_fmt_host(host, sizeof(host), r);
		fprintf(f, "<tr><td>%zu</td><td class=\"l\"><span class=\"sw\" style=\"background:%s\"></span>",
			i + 1, COLOUR(i));
		esc(f, t->labels[i]);
		fprintf(f, "</td><td class=\"l\">%s ", r->sim ? "simulator" : "kernel");
		esc(f, r->kernel);
		if (r->vm) {
			fputs(" in ", f);
			esc(f, r->vm);
		}
		fprintf(f, "</td><td>%zu</td><td class=\"l\">", r->runs);
		esc(f, host);
		fputs("</td><td class=\"l\"><code>", f);
		esc(f, r->path);
		fputs("</code></td><td class=\"l\"><code>", f);
		esc(f, r->command);
		fputs("</code></td></tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

static void value_td(FILE *f, const struct rep_table *t, const struct rep_cell *c)
{
	char v[48], range[96];
	if (c->state != REP_CELL_OK) {
		fprintf(f, "<td class=\"dim\">%s</td>", rep_cell_placeholder(c));
		return;
	}
	rep_fmt_value(v, sizeof(v), c->s.mean);
	rep_fmt_range(range, sizeof(range), c);
	fprintf(f, "<td title=\"n=%zu, min\u2013max %s\">%s <span class=\"dim\">\u00b1 %.0f%%</span>",
		c->s.n, range, v, c->s.stddev_pct);
	if (t->opt->ranges)
		fprintf(f, "<br><span class=\"dim\">%s</span>", range);
	fputs("</td>", f);
}

static void comparison_table(FILE *f, const struct rep_table *t)
{
	char buf[64];
	fputs("<div class=\"wide\"><table class=\"cmp\" id=\"comparison\"><thead><tr><th class=\"name\">metric</th><th>", f);
	esc(f, t->labels[0]);
	fputs("</th>", f);
	for (size_t i = 1; i < t->nin; i++) {
		fputs("<th>%change</th><th>", f);
		esc(f, t->labels[i]);
		fputs("</th><th class=\"name\"></th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct rep_row *row = &t->rows[r];
		if (!row->shown)
			continue;
		fputs("<tr><td class=\"name\">", f);
		esc(f, row->name);
		fputs("</td>", f);
		value_td(f, t, &row->cells[0]);
		for (size_t i = 1; i < t->nin; i++) {
			const struct rep_cell *c = &row->cells[i];
			rep_fmt_change(buf, sizeof(buf), c);
			fprintf(f, "<td class=\"%s\">%s</td>", c->significant ? verdict_class[c->verdict] : "", buf);
			value_td(f, t, c);
			if (c->significant || c->nc == REP_NC_FIDELITY) {
				rep_fmt_flag(buf, sizeof(buf), c);
				fprintf(f, "<td class=\"l %s\">%s</td>", c->significant ?
					verdict_class[c->verdict] : "dim", buf);
			} else {
				rep_fmt_p(buf, sizeof(buf), c);
				fprintf(f, "<td class=\"l dim\">%s</td>", buf);
			}
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n<p class=\"dim\">Each column against the first.", f);
	if (t->any_vm)
		fputs("  n/c: timings of a run in an emulated guest are not comparable.", f);
	if (t->nshown < t->nrows) {
		rep_fmt_folded(buf, sizeof(buf), t);
		fprintf(f, "  %s; <code>--all</code> shows them.", buf);
	}
	fputs("</p>\n", f);
}

/* ---- latency: box p50..p99, tick at p90, whiskers min..max, log x ---- */

static const char *const pct_names[] = { "min", "p50", "p90", "p99", "max" };
#define NPCT 5

static bool latency_of(const struct rep_table *t, const char *sys, size_t i, double out[NPCT])
{
	char name[160];
	for (int k = 0; k < NPCT; k++) {
		snprintf(name, sizeof(name), "vmreplay.%s.latency_ns.%s", sys, pct_names[k]);
		const struct rep_metric *m = rep_metric_find(&t->in[i], name);
		struct rep_summary s;
		if (t->in[i].sim || !m || !m->n)
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
	size_t n = t->nin;
	for (size_t i = 0; i < n; i++) {
		if (!latency_of(t, sys, i, p))
			continue;
		lo = fmin(lo, log10(p[0]));
		hi = fmax(hi, log10(p[4]));
	}
	if (!isfinite(lo))
		return;
	lo = floor(lo);
	hi = fmax(ceil(hi), lo + 1);
	int h = 30 + 30 * (int)n + 30;
	fprintf(f, "<figure class=\"latency\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" role=\"img\" aria-label=\"%s latency\">\n", PLOT_W, h, sys);
	fprintf(f, "<text x=\"4\" y=\"16\" style=\"font-weight:600\">%s latency (ns, log scale)</text>\n", sys);
	for (int d = (int)lo; d <= (int)hi; d++) {
		double x = xlog(pow(10, d), lo, hi);
		fprintf(f, "<line x1=\"%.1f\" y1=\"26\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">1e%d</text>\n",
			x, x, h - 24, x, h - 8, d);
	}
	for (size_t i = 0; i < n; i++) {
		int y = 40 + 30 * (int)i;
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LEFT - 8, y + 4);
		esc(f, t->labels[i]);
		fputs("</text>\n", f);
		if (!latency_of(t, sys, i, p)) {
			fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"dim\">no kernel timings (%s)</text>\n",
				LEFT, y + 4, t->in[i].sim ? "simulator" : "not in these results");
			continue;
		}
		double x[NPCT];
		for (int k = 0; k < NPCT; k++)
			x[k] = xlog(p[k], lo, hi);
		fprintf(f, "<g stroke=\"%s\"><title>min %.0f, p50 %.0f, p90 %.0f, p99 %.0f, max %.0f ns</title>"
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
			"<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" fill=\"%s\" fill-opacity=\"0.25\"/>"
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke-width=\"3\"/>"
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke-dasharray=\"2,2\"/>"
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/></g>\n",
			COLOUR(i), p[0], p[1], p[2], p[3], p[4],
			x[0], y, x[4], y, x[1], y - 8, fmax(x[3] - x[1], 1), COLOUR(i),
			x[1], y - 8, x[1], y + 8, x[2], y - 8, x[2], y + 8,
			x[0], y - 5, x[0], y + 5, x[4], y - 5, x[4], y + 5);
	}
	fputs("</svg><figcaption>Box: p50 (thick) to p99, dashed: p90, whiskers: min and max; "
	      "means over the runs.</figcaption></figure>\n", f);
}

static void latency_section(FILE *f, const struct rep_table *t)
{
	static const char suffix[] = ".latency_ns.p50";
	bool any = false;
	fputs("<h2>Latency per system call</h2>\n", f);
	for (size_t r = 0; r < t->nrows; r++) {
		const char *name = t->rows[r].name;
		size_t n = strlen(name), sl = strlen(suffix);
		if (strncmp(name, "vmreplay.", 9) || n <= 9 + sl || strcmp(name + n - sl, suffix))
			continue;
		char sys[64];
		snprintf(sys, sizeof(sys), "%.*s", (int)(n - 9 - sl), name + 9);
		latency_plot(f, t, sys);
		any = true;
	}
	if (!any)
		fputs("<p class=\"dim\">No latency percentiles in these results.</p>\n", f);
}

/* ---- VMA count over the run ---------------------------------------- */

#define MAX_POINTS 800

static void vma_line(FILE *f, const struct rep_results *r, size_t idx, double x0, double xs,
		     double ylo, double ys, int ybase)
{
	size_t n = r->nevents, per = n > MAX_POINTS ? (n + MAX_POINTS - 1) / MAX_POINTS : 1;
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", COLOUR(idx));
	for (size_t k = 0; k < n; k += per) {	/* min and max of each bucket keep the spikes */
		long long mn = -1, mx = -1;
		for (size_t j = k; j < k + per && j < n; j++) {
			long long v = r->events[j].vma_count;
			if (v < 0)
				continue;
			if (mn < 0 || v < mn)
				mn = v;
			if (v > mx)
				mx = v;
		}
		if (mn < 0)
			continue;
		double x = x0 + xs * (double)r->events[k].i;
		fprintf(f, "%.1f,%.1f %.1f,%.1f ", x, ybase - ys * (mn - ylo), x, ybase - ys * (mx - ylo));
	}
	fputs("\"/>\n", f);
}

static void vma_over_run(FILE *f, const struct rep_table *t)
{
	double xmax = 1, ylo = INFINITY, yhi = -INFINITY;
	for (size_t i = 0; i < t->nin; i++) {
		const struct rep_results *r = &t->in[i];
		for (size_t k = 0; k < r->nevents; k++) {
			if (r->events[k].vma_count < 0)
				continue;
			xmax = fmax(xmax, (double)r->events[k].i);
			ylo = fmin(ylo, (double)r->events[k].vma_count);
			yhi = fmax(yhi, (double)r->events[k].vma_count);
		}
	}
	if (!isfinite(ylo))
		return;
	if (yhi == ylo)
		yhi = ylo + 1;
	const int top = 30, ybase = top + 200;
	int h = ybase + 36 + 16 * (int)((t->nin + 3) / 4);
	double xs = (PLOT_W - 60 - RIGHT) / xmax, ys = 200 / (yhi - ylo);
	fprintf(f, "<figure class=\"vma-run\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" role=\"img\" aria-label=\"VMA count over the run\">\n", PLOT_W, h);
	fputs("<text x=\"4\" y=\"16\" style=\"font-weight:600\">VMAs after each event</text>\n", f);
	fprintf(f, "<line x1=\"60\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>"
		"<line x1=\"60\" y1=\"%d\" x2=\"60\" y2=\"%d\" stroke=\"#999\"/>\n",
		ybase, PLOT_W - RIGHT, ybase, top, ybase);
	fprintf(f, "<text x=\"54\" y=\"%d\" text-anchor=\"end\">%.0f</text>"
		"<text x=\"54\" y=\"%d\" text-anchor=\"end\">%.0f</text>\n", ybase, ylo, top + 8, yhi);
	fprintf(f, "<text x=\"60\" y=\"%d\">event 0</text><text x=\"%d\" y=\"%d\" "
		"text-anchor=\"end\">event %.0f</text>\n", ybase + 16, PLOT_W - RIGHT, ybase + 16, xmax);
	int ly = ybase + 36;
	for (size_t i = 0; i < t->nin; i++) {
		const struct rep_results *r = &t->in[i];
		int lx = 60 + 160 * (int)(i % 4);
		if (i && i % 4 == 0)
			ly += 16;
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\">", lx, ly - 9, COLOUR(i), lx + 14, ly);
		esc(f, t->labels[i]);
		fputs(r->has_events ? "" : " (no per-event results)", f);
		fputs("</text>\n", f);
		if (r->has_events)
			vma_line(f, r, i, 60, xs, ylo, ys, ybase);
	}
	fputs("</svg><figcaption>VMA count of the replayed address space after each event "
	      "(<code>vmreplay --per-event</code>).</figcaption></figure>\n", f);
}

/* Horizontal grouped bars, one group per metric with PREFIX, one bar per
 * input; the value is written at the end of each bar. */
static void bars(FILE *f, const struct rep_table *t, const char *prefix, const char *title,
		 const char *cls)
{
	size_t pl = strlen(prefix), groups = 0;
	double vmax = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		if (strncmp(t->rows[r].name, prefix, pl))
			continue;
		groups++;
		for (size_t i = 0; i < t->nin; i++)
			if (t->rows[r].cells[i].state == REP_CELL_OK)
				vmax = fmax(vmax, t->rows[r].cells[i].s.mean);
	}
	if (!groups)
		return;
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
		if (strncmp(row->name, prefix, pl))
			continue;
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LEFT - 8, y + gh / 2);
		esc(f, row->name + pl);
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
				LEFT, y + 1, fmax(w, 0.5), bh - 2, COLOUR(i), LEFT + fmax(w, 0.5) + 4,
				y + bh - 2, v);
		}
		y += gap;
	}
	fputs("</svg><figcaption>Means over the runs; colours as in the table of inputs.</figcaption>"
	      "</figure>\n", f);
}

static void explain_section(FILE *f, const struct rep_table *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return;
	rep_explain_text(m, t, false);
	fclose(m);
	fputs("<h2>Divergence</h2>\n<pre id=\"explain\">", f);
	esc(f, text + (text[0] == '\n'));
	fputs("</pre>\n", f);
	free(text);
}

static void trace_section(FILE *f, const struct rep_table *t, size_t k)
{
	const char *trace = rep_trace_name(&t->in[0]);
	fprintf(f, "<section id=\"trace-%zu\">\n<h1>vmreport: trace <code>", k + 1);
	esc(f, trace ? trace : "(not named)");
	fputs("</code></h1>\n", f);
	inputs_table(f, t);
	fputs("<h2>Comparison</h2>\n", f);
	comparison_table(f, t);
	latency_section(f, t);
	fputs("<h2>VMA count over the run</h2>\n", f);
	vma_over_run(f, t);
	bars(f, t, "vmreplay.vma_count.", "VMA counts at the checkpoints", "vma-checkpoints");
	fputs("<h2>Merge outcomes</h2>\n", f);
	bars(f, t, "vmreplay.merge.", "Merge outcome of every operation, per input", "merge-bars");
	if (t->opt->explain)
		explain_section(f, t);
	fputs("</section>\n", f);
}

void rep_write_html(FILE *f, const struct rep_table *const *tables, size_t n)
{
	const char *trace = n == 1 ? rep_trace_name(&tables[0]->in[0]) : NULL;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>vmreport: ", f);
	if (n == 1)
		esc(f, trace ? trace : "results");
	else
		fprintf(f, "%zu traces", n);
	fprintf(f, "</title>\n<style>%s</style></head><body>\n", css);
	for (size_t k = 0; k < n; k++)
		trace_section(f, tables[k], k);
	fputs("</body></html>\n", f);
}
