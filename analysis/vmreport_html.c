/* vmreport_html.c - one self-contained page: inline CSS, SVG drawn in
 * vmreport_html_plots.c, no script and nothing fetched.  It fits a laptop
 * screen: the table's metric names break after their dots, a column's
 * %change and flag share a cell, long paths and commands wrap, and what
 * is still too wide scrolls inside its own box. */
#include "analysis/vmreport_html.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/vmreport_explain.h"
#include "analysis/vmreport_format.h"
#include "analysis/vmreport_html_plots.h"
#include "analysis/vmreport_html_shared.h"

static const char css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:1800px;color:#222;padding:0 1em}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"th,td{padding:.2em .5em;border-bottom:1px solid #e4e4e4;text-align:right;white-space:nowrap}"
	"th{background:#f3f3f3;white-space:normal;vertical-align:bottom}td.name,th.name,td.l{text-align:left}"
	"td.name{font-family:ui-monospace,monospace;white-space:normal;min-width:11em}"
	"table.cmp{font-size:13px}table.cmp td.chg-cell{min-width:5.5em}"
	"td.sub{text-align:left;white-space:normal;overflow-wrap:anywhere;font-size:.85em;color:#555;border-bottom:1px solid #ccc}"
	".imp{color:#0a7a20;font-weight:600}.reg{color:#c01818;font-weight:600}.chg{color:#a06000;font-weight:600}"
	".flag{display:block;font-size:.85em}"
	".dim{color:#888}.sw{display:inline-block;width:.9em;height:.9em;margin-right:.4em;vertical-align:-.1em}"
	".warn{background:#fff4e0;border-left:4px solid #e08a00;padding:.3em .6em;margin:.3em 0}"
	".note{background:#eef4fb;border-left:4px solid #4a84c4;padding:.3em .6em;margin:.3em 0}"
	"figure{margin:1em 0}figcaption{color:#555;font-size:.9em;max-width:720px}"
	"svg text{font:12px system-ui,sans-serif;fill:#333}nav a{margin-right:1em}"
	"pre{background:#f6f6f6;padding:.8em;overflow-x:auto}.wide{overflow-x:auto;max-width:100%}";

/* A metric name that may break after each dot. */
static void esc_breakable(FILE *f, const char *s)
{
	for (; *s; s++) {
		char c[2] = { *s, 0 };
		rep_html_esc(f, c);
		if (*s == '.' && s[1])
			fputs("<wbr>", f);
	}
}

static const char *const verdict_class[] = {
	[REP_SAME] = "", [REP_IMPROVEMENT] = "imp", [REP_REGRESSION] = "reg", [REP_CHANGED] = "chg",
};

static void inputs_table(FILE *f, const struct rep_table *t)
{
	char host[256];
	fputs("<div class=\"wide\"><table class=\"inputs\"><tr><th>#</th><th class=\"name\">label</th>"
	      "<th class=\"name\">target</th><th>runs</th><th class=\"name\">host</th></tr>\n", f);
	for (size_t i = 0; i < t->nin; i++) {
		const struct rep_results *r = &t->in[i];
		rep_fmt_host(host, sizeof(host), r);
		fprintf(f, "<tr><td>%zu</td><td class=\"l\"><span class=\"sw\" style=\"background:%s\">"
			"</span>", i + 1, rep_html_colour(i));
		rep_html_esc(f, t->labels[i]);
		fprintf(f, "</td><td class=\"l\">%s ", r->sim ? "simulator" : "kernel");
		rep_html_esc(f, r->kernel);
		if (r->vm) {
			fputs(" in ", f);
			rep_html_esc(f, r->vm);
		}
		fprintf(f, "</td><td>%zu</td><td class=\"l\">", r->runs);
		rep_html_esc(f, host);
		fputs("</td></tr>\n<tr><td></td><td class=\"sub\" colspan=\"4\">results <code>", f);
		rep_html_esc(f, r->path);
		fputs("</code>", f);
		if (r->reproduce || r->command) {
			fputs(r->reproduce ? " &middot; reproduce: <code>" : " &middot; ran in the guest: <code>", f);
			rep_html_esc(f, r->reproduce ? r->reproduce : r->command);
			fputs("</code>", f);
		}
		if (r->incomplete) {
			fputs(" &middot; incomplete: ", f);
			rep_html_esc(f, r->incomplete_reason ? r->incomplete_reason : "the trace was cut short");
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

static void html_note(const char *line, bool warning, void *arg)
{
	FILE *f = arg;
	fprintf(f, "<p class=\"%s\"><b>%s:</b> ", warning ? "warn" : "note", warning ? "warning" : "note");
	rep_html_esc(f, line);
	fputs("</p>\n", f);
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

/* %change, and under it the flag (or the mark of a cell not compared). */
static void change_td(FILE *f, const struct rep_cell *c)
{
	char change[64], flag[96], p[48];
	rep_fmt_change(change, sizeof(change), c);
	rep_fmt_flag(flag, sizeof(flag), c);
	rep_fmt_p(p, sizeof(p), c);
	const char *cls = c->significant ? verdict_class[c->verdict] : c->nc ? "dim" : "";
	fprintf(f, "<td class=\"chg-cell %s\"", cls);
	if (p[0] && !c->significant) {	/* the evidence of what is not flagged, on hover */
		fputs(" title=\"", f);
		rep_html_esc(f, p);
		fputc('"', f);
	}
	fputc('>', f);
	rep_html_esc(f, change);
	if (flag[0]) {
		fputs("<span class=\"flag\">", f);
		rep_html_esc(f, flag);
		fputs("</span>", f);
	}
	fputs("</td>", f);
}

static void comparison_table(FILE *f, const struct rep_table *t)
{
	char stat[1024], folded[160];
	fputs("<div class=\"wide\"><table class=\"cmp\" id=\"comparison\"><thead><tr><th class=\"name\">"
	      "metric</th><th>", f);
	rep_html_esc(f, t->labels[0]);
	fputs("</th>", f);
	for (size_t i = 1; i < t->nin; i++) {
		fputs("<th>%change</th><th>", f);
		rep_html_esc(f, t->labels[i]);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct rep_row *row = &t->rows[r];
		if (!row->shown)
			continue;
		fputs("<tr><td class=\"name\">", f);
		esc_breakable(f, row->name);
		fputs("</td>", f);
		value_td(f, t, &row->cells[0]);
		for (size_t i = 1; i < t->nin; i++) {
			change_td(f, &row->cells[i]);
			value_td(f, t, &row->cells[i]);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n<p class=\"dim\">Each column against the first.", f);
	if (t->any_vm)
		fputs("  n/c: timings of a run in an emulated guest are not comparable.", f);
	if (t->nshown < t->nrows) {
		rep_fmt_folded(folded, sizeof(folded), t);
		fprintf(f, "  %s; <code>--all</code> shows them.", folded);
	}
	rep_fmt_statistic(stat, sizeof(stat), t);
	fputs("</p>\n<p class=\"dim\" id=\"statistic\">", f);
	rep_html_esc(f, stat);
	fputs("</p>\n", f);
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
	rep_html_esc(f, text + (text[0] == '\n'));
	fputs("</pre>\n", f);
	free(text);
}

static void trace_section(FILE *f, const struct rep_table *t, size_t k)
{
	const char *trace = rep_trace_name(&t->in[0]);
	fprintf(f, "<section id=\"trace-%zu\">\n<h1>vmreport: trace <code>", k + 1);
	rep_html_esc(f, trace ? trace : "(not named)");
	fputs("</code></h1>\n", f);
	inputs_table(f, t);
	rep_each_column_note(t, html_note, f);
	fputs("<h2>Comparison</h2>\n", f);
	comparison_table(f, t);
	rep_html_plots(f, t);
	if (t->opt->explain)
		explain_section(f, t);
	fputs("</section>\n", f);
}

/* With several traces: links to each section, in order. */
static void contents(FILE *f, const struct rep_table *const *tables, size_t n)
{
	fputs("<nav>traces:", f);
	for (size_t k = 0; k < n; k++) {
		const char *trace = rep_trace_name(&tables[k]->in[0]);
		fprintf(f, " <a href=\"#trace-%zu\">", k + 1);
		rep_html_esc(f, trace ? trace : "(not named)");
		fputs("</a>", f);
	}
	fputs("</nav>\n", f);
}

void rep_write_html(FILE *f, const struct rep_table *const *tables, size_t n)
{
	const char *trace = n == 1 ? rep_trace_name(&tables[0]->in[0]) : NULL;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>vmreport: ", f);
	if (n == 1)
		rep_html_esc(f, trace ? trace : "results");
	else
		fprintf(f, "%zu traces", n);
	fprintf(f, "</title>\n<style>%s</style></head><body>\n", css);
	if (n > 1)
		contents(f, tables, n);
	for (size_t k = 0; k < n; k++)
		trace_section(f, tables[k], k);
	fputs("</body></html>\n", f);
}
