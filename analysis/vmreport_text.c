/* vmreport_text.c - the LKP comparison table as lkp-tests prints it
 * (lib/compare.rb): first column 16 wide, the others 27, values %10.2f /
 * %10d / %10.4g, "± N%" stddev - here always printed - and %change of
 * every column against the first.  Verdicts follow the metric name. */
#include "analysis/vmreport_text.h"

#include <string.h>

#include "analysis/vmreport_explain.h"
#include "analysis/vmreport_format.h"
#include "analysis/vmreport_md.h"

#define FIRST_WIDTH 16
#define COL_WIDTH 27

static const char *const verdict_colour[] = {
	[REP_SAME] = "", [REP_IMPROVEMENT] = "\033[32m",
	[REP_REGRESSION] = "\033[31m", [REP_CHANGED] = "\033[33m",
};

/* TEXT in lines of at most WIDTH columns (words longer stay whole), the
 * lines after the first indented by INDENT. */
static void wrap(FILE *f, const char *text, int width, const char *indent)
{
	int col = 0;
	while (*text) {
		const char *end = strchrnul(text, ' ');
		int n = (int)(end - text);
		if (col && col + 1 + n > width) {
			fprintf(f, "\n%s", indent);
			col = (int)strlen(indent);
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		fwrite(text, 1, (size_t)n, f);
		col += n;
		text = *end ? end + 1 : end;
		while (*text == ' ')	/* "  " between sentences: one break point */
			text++;
	}
	fputc('\n', f);
}

static void column_note(const char *line, bool warning, void *arg)
{
	char buf[1200];
	snprintf(buf, sizeof(buf), "%s: %s", warning ? "warning" : "note", line);
	wrap(arg, buf, 100, "  ");
}

static void legend(FILE *f, const struct rep_table *t)
{
	const char *trace = rep_trace_name(&t->in[0]);
	fprintf(f, "vmreport: trace %s\n", trace ? trace : "(not named)");
	for (size_t i = 0; i < t->nin; i++) {
		const struct rep_results *r = &t->in[i];
		char host[256];
		rep_fmt_host(host, sizeof(host), r);
		bool same = strcmp(t->labels[i], r->kernel) == 0;
		fprintf(f, "  #%zu %s: %s%s%s, %zu run%s, %s%s%s%s (%s)\n", i + 1, t->labels[i],
			r->sim ? "simulator profile" : "kernel", same ? "" : " ",
			same ? "" : r->kernel, r->runs,
			r->runs == 1 ? "" : "s", host, r->vm ? ", in a " : "",
			r->vm ? r->vm : "", r->vm ? " guest" : "", r->path);
		if (r->reproduce)
			fprintf(f, "     reproduce: %s\n", r->reproduce);
		else if (r->command)	/* a guest's, from before "reproduce" was written */
			fprintf(f, "     ran in the guest: %s\n", r->command);
		if (r->incomplete)
			fprintf(f, "     incomplete: %s; its events are compared as far as they go\n",
			        r->incomplete_reason ? r->incomplete_reason : "the trace was cut short");
		const char *tr = rep_trace_name(r);
		if (i && tr && trace && strcmp(tr, trace))
			fprintf(f, "     of another trace: %s\n", tr);
	}
	rep_each_column_note(t, column_note, f);
	char stat[1024];
	rep_fmt_statistic(stat, sizeof(stat), t);
	wrap(f, stat, 100, "  ");
	fputc('\n', f);
}

/* Header lines are built whole so trailing blanks can be cut, as LKP's. */
struct line {
	char buf[4096];
	size_t n;
};

static void line_put(struct line *l, const char *s, int width)
{
	FILE *m = fmemopen(l->buf + l->n, sizeof(l->buf) - l->n, "w");
	if (!m)
		return;
	if (l->n)
		fputc(' ', m);
	if (width)
		rep_put_padded(m, s, width, 0);
	else
		fputs(s, m);
	l->n += (size_t)ftell(m);
	fclose(m);
}

static void line_end(FILE *f, struct line *l)
{
	while (l->n && l->buf[l->n - 1] == ' ')
		l->n--;
	fprintf(f, "%.*s\n", (int)l->n, l->buf);
	l->n = 0;
}

static void header(FILE *f, const struct rep_table *t)
{
	static const char *const rows[][2] = {
		{ "----------------", "---------------------------" },
		{ "       %stddev  ", "  %change         %stddev  " },
		{ "           \\    ", "     |                \\    " },
	};
	struct line l = { .n = 0 };
	char runs[32];
	for (size_t i = 0; i < t->nin; i++)
		line_put(&l, t->labels[i], i ? COL_WIDTH : FIRST_WIDTH);
	line_end(f, &l);
	for (size_t i = 0; i < t->nin; i++) {
		snprintf(runs, sizeof(runs), "%zu run%s", t->in[i].runs, t->in[i].runs == 1 ? "" : "s");
		line_put(&l, runs, i ? COL_WIDTH : FIRST_WIDTH);
	}
	line_end(f, &l);
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		for (size_t i = 0; i < t->nin; i++)
			line_put(&l, rows[r][i > 0], 0);
		line_end(f, &l);
	}
}

/* value (10) and " ±NNN%" (6) */
static void value_stddev(FILE *f, const struct rep_cell *c)
{
	char v[48];
	if (c->state != REP_CELL_OK) {
		fprintf(f, "%10s      ", rep_cell_placeholder(c));
		return;
	}
	rep_fmt_value(v, sizeof(v), c->s.mean);
	fprintf(f, "%10s \u00b1%3.0f%%", v, c->s.stddev_pct);
}

static void row_line(FILE *f, const struct rep_table *t, const struct rep_row *row, bool colour)
{
	char buf[64], tag[16];
	value_stddev(f, &row->cells[0]);
	for (size_t i = 1; i < t->nin; i++) {
		const struct rep_cell *c = &row->cells[i];
		rep_fmt_change(buf, sizeof(buf), c);
		bool paint = colour && c->significant;
		fprintf(f, " %s%10s%s ", paint ? verdict_colour[c->verdict] : "", buf,
			paint ? "\033[0m" : "");
		value_stddev(f, c);
	}
	fprintf(f, "  %s", row->name);
	for (size_t i = 1; i < t->nin; i++) {
		rep_fmt_flag(buf, sizeof(buf), &row->cells[i]);
		if (!buf[0])
			continue;
		rep_fmt_column_tag(tag, sizeof(tag), t, i);
		fprintf(f, "  %s%s", tag, buf);
	}
	fputc('\n', f);
}

static void range_line(FILE *f, const struct rep_table *t, const struct rep_row *row)
{
	char buf[80];
	rep_fmt_range(buf, sizeof(buf), &row->cells[0]);
	rep_put_padded(f, buf, FIRST_WIDTH, 1);
	for (size_t i = 1; i < t->nin; i++) {
		rep_fmt_range(buf, sizeof(buf), &row->cells[i]);
		fputs("            ", f);	/* separator and the %change field */
		rep_put_padded(f, buf, COL_WIDTH - 11, 1);
	}
	fputs("  ^ min\u2013max\n", f);
}

static void notes(FILE *f, const struct rep_table *t)
{
	bool nc = false, na = false, miss = false, fid = false;
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t i = 0; i < t->nin; i++) {
			const struct rep_cell *c = &t->rows[r].cells[i];
			nc |= t->rows[r].shown && c->nc == REP_NC_EMULATED;
			fid |= t->rows[r].shown && c->nc == REP_NC_FIDELITY;
			na |= t->rows[r].shown && c->state == REP_CELL_NOT_MEASURED;
			miss |= t->rows[r].shown && c->state == REP_CELL_MISSING;
		}
	}
	fputc('\n', f);
	if (nc)
		fputs("n/c: not comparable: timings of a run in an emulated guest (qemu-tcg); compare "
		      "VMA counts and merge outcomes only.\n", f);
	if (fid)
		fputs("not comparable: the replay of that column, or of the first, did not do what the "
		      "recording did (see the warning above).\n", f);
	if (na)
		fputs("n/a: timings of a simulator run measure the model, not a kernel.\n", f);
	if (miss)
		fputs("missing: the results file has no such metric.\n", f);
	if (t->nshown < t->nrows) {
		char folded[160];
		rep_fmt_folded(folded, sizeof(folded), t);
		fprintf(f, "%s; --all shows them.\n", folded);
	}
}

void rep_write_text(FILE *f, const struct rep_table *t, bool colour)
{
	legend(f, t);
	header(f, t);
	for (size_t r = 0; r < t->nrows; r++) {
		if (!t->rows[r].shown)
			continue;
		row_line(f, t, &t->rows[r], colour);
		if (t->opt->ranges)
			range_line(f, t, &t->rows[r]);
	}
	notes(f, t);
	if (t->opt->explain)
		rep_explain_text(f, t, false);
}

/* ---- markdown -------------------------------------------------------- */

static void md_cell(FILE *f, const struct rep_table *t, const struct rep_cell *c)
{
	char v[48], range[96];
	if (c->state != REP_CELL_OK) {
		fprintf(f, " %s |", rep_cell_placeholder(c));
		return;
	}
	rep_fmt_value(v, sizeof(v), c->s.mean);
	fprintf(f, " %s ± %.0f%%", v, c->s.stddev_pct);
	if (t->opt->ranges) {
		rep_fmt_range(range, sizeof(range), c);
		fprintf(f, " (%s)", range);
	}
	fputs(" |", f);
}

static void md_note(const char *line, bool warning, void *arg)
{
	fprintf(arg, "**%s:** ", warning ? "warning" : "note");
	rep_md_text(arg, line);
	fputs("  \n", arg);
}

void rep_write_markdown(FILE *f, const struct rep_table *t)
{
	char buf[256];
	const char *trace = rep_trace_name(&t->in[0]);
	fputs("### vmreport: trace ", f);
	if (trace)
		rep_md_code(f, trace, false);
	else
		fputs("(not named)", f);
	fputs("\n\n| # | label | target | runs | host | results | reproduce |\n"
	      "|---|---|---|---:|---|---|---|\n", f);
	for (size_t i = 0; i < t->nin; i++) {
		const struct rep_results *r = &t->in[i];
		rep_fmt_host(buf, sizeof(buf), r);
		fprintf(f, "| %zu | ", i + 1);
		rep_md_text(f, t->labels[i]);
		fprintf(f, " | %s ", r->sim ? "simulator" : "kernel");
		rep_md_text(f, r->kernel);
		if (r->vm) {
			fputs(" in ", f);
			rep_md_text(f, r->vm);
		}
		fprintf(f, " | %zu | ", r->runs);
		rep_md_text(f, buf);
		fputs(" | ", f);
		rep_md_code(f, r->path, true);
		fputs(" | ", f);
		if (r->reproduce)
			rep_md_code(f, r->reproduce, true);
		fputs(" |\n", f);
	}
	fputc('\n', f);
	rep_each_column_note(t, md_note, f);
	char stat[1024];
	rep_fmt_statistic(stat, sizeof(stat), t);
	rep_md_text(f, stat);
	fputs("\n\n| metric | ", f);
	rep_md_text(f, t->labels[0]);
	fputs(" |", f);
	for (size_t i = 1; i < t->nin; i++) {
		fputc(' ', f);
		rep_md_text(f, t->labels[i]);
		fputs(" | %change | |", f);
	}
	fputs("\n|---|---:|", f);
	for (size_t i = 1; i < t->nin; i++)
		fputs("---:|---:|---|", f);
	fputc('\n', f);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct rep_row *row = &t->rows[r];
		if (!row->shown)
			continue;
		fputs("| ", f);
		rep_md_code(f, row->name, true);
		fputs(" |", f);
		md_cell(f, t, &row->cells[0]);
		for (size_t i = 1; i < t->nin; i++) {
			const struct rep_cell *c = &row->cells[i];
			md_cell(f, t, c);
			rep_fmt_change(buf, sizeof(buf), c);
			fprintf(f, c->significant ? " **%s** |" : " %s |", buf);
			rep_fmt_flag(buf, sizeof(buf), c);
			fprintf(f, buf[0] ? " %s |" : " |", buf);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	if (t->any_vm)
		fputs("n/c: timings of a run in an emulated guest are not comparable.  \n", f);
	if (t->nshown < t->nrows) {
		rep_fmt_folded(buf, sizeof(buf), t);
		rep_md_text(f, buf);
		fputs("; `--all` shows them.  \n", f);
	}
	if (t->opt->explain)
		rep_explain_text(f, t, true);
}
