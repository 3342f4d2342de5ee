/* vmreport_html_shared.c - what the page (vmreport_html.c) and its plots
 * (vmreport_html_plots.c) both write: text escaped for HTML, and each
 * input's colour. */
#include "analysis/vmreport_html_shared.h"

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
};

const char *rep_html_colour(size_t input)
{
	return palette[input % (sizeof(palette) / sizeof(palette[0]))];
}

void rep_html_esc(FILE *f, const char *s)
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
