/* vmreport_format.c - number, label and host formatting. */
#include "analysis/vmreport_format.h"

#include <math.h>
#include <string.h>

void rep_fmt_value(char *buf, size_t len, double v)
{
	if (fabs(v) < 1000)
		snprintf(buf, len, "%.2f", v);
	else if (fabs(v) > 1e8)
		snprintf(buf, len, "%.4g", v);
	else
		snprintf(buf, len, "%.0f", v);
}

void rep_fmt_change(char *buf, size_t len, const struct rep_cell *c)
{
	buf[0] = 0;
	if (!c->comparable)
		snprintf(buf, len, "n/c");
	else if (c->has_change)
		snprintf(buf, len, "%+.1f%%", c->change_pct);
	else if (c->state == REP_CELL_OK && c->s.n)
		snprintf(buf, len, "%sinf%%", c->s.mean > 0 ? "+" : "-");
}

void rep_fmt_p(char *buf, size_t len, const struct rep_cell *c)
{
	buf[0] = 0;
	if (c->exact)
		snprintf(buf, len, "exact");
	else if (c->has_welch && c->welch.p < 0.001)
		snprintf(buf, len, "p<0.001");
	else if (c->has_welch)
		snprintf(buf, len, "p=%.3f", c->welch.p);
}

void rep_fmt_range(char *buf, size_t len, const struct rep_cell *c)
{
	char lo[32], hi[32];
	if (c->state != REP_CELL_OK) {
		buf[0] = 0;
		return;
	}
	rep_fmt_value(lo, sizeof(lo), c->s.min);
	rep_fmt_value(hi, sizeof(hi), c->s.max);
	snprintf(buf, len, "%s\u2013%s", lo, hi);
}

const char *rep_cell_placeholder(const struct rep_cell *c)
{
	switch (c->state) {
	case REP_CELL_MISSING: return "missing";
	case REP_CELL_NOT_MEASURED: return "n/a";
	case REP_CELL_OK: break;
	}
	return "";
}

static void append(char *buf, size_t len, const char *sep, const char *s)
{
	size_t n = strlen(buf);
	if (n + 1 < len)
		snprintf(buf + n, len - n, "%s%s", n ? sep : "", s);
}

void rep_fmt_host(char *buf, size_t len, const struct rep_results *r)
{
	const struct json *h = r->host, *v;
	char part[96];
	buf[0] = 0;
	const char *cpu = json_get_str(h, "cpu");
	if (cpu)
		append(buf, len, ", ", cpu);
	if ((v = json_get(h, "cores")) && v->type == JSON_NUMBER) {
		snprintf(part, sizeof(part), "%g core%s", v->number, v->number == 1 ? "" : "s");
		append(buf, len, ", ", part);
	}
	if ((v = json_get(h, "memory"))) {
		if (v->type == JSON_NUMBER) {	/* bytes */
			snprintf(part, sizeof(part), "%.1f GiB", v->number / (1 << 30));
			append(buf, len, ", ", part);
		} else if (v->type == JSON_STRING) {
			append(buf, len, ", ", v->string);
		}
	}
	const char *en = json_get_str(h, "thp_enabled"), *df = json_get_str(h, "thp_defrag");
	if (en || df) {
		snprintf(part, sizeof(part), "THP %s%s%s", en ? en : "?", df ? "/" : "", df ? df : "");
		append(buf, len, ", ", part);
	}
	if (!buf[0])
		append(buf, len, "", "host unknown");
}

static int utf8_width(const char *s, size_t *bytes_for, int width)
{
	int cols = 0;
	size_t i = 0;
	for (; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (cols == width)
			break;
		cols++;
	}
	*bytes_for = i;
	return cols;
}

void rep_put_padded(FILE *f, const char *s, int width, int right)
{
	size_t bytes;
	int cols = utf8_width(s, &bytes, width);
	if (right)
		fprintf(f, "%*s", width - cols, "");
	fwrite(s, 1, bytes, f);
	if (!right)
		fprintf(f, "%*s", width - cols, "");
}

void rep_fmt_column_tag(char *buf, size_t len, const struct rep_table *t, size_t i)
{
	if (t->nin > 2)
		snprintf(buf, len, "#%zu ", i + 1);
	else
		buf[0] = 0;
}
