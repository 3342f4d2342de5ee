/* vmreport_html.h - one self-contained HTML page: the table, and SVG plots
 * of latency distributions, VMA counts and merge outcomes. */
#ifndef VMREC_VMREPORT_HTML_H
#define VMREC_VMREPORT_HTML_H

#include <stdio.h>

#include "analysis/vmreport_compare.h"

/* One page for N comparisons (one per trace with --by-trace). */
void rep_write_html(FILE *f, const struct rep_table *const *tables, size_t n);

/* Shared by the page and its plots (vmreport_html_plots.c). */
void rep_html_esc(FILE *f, const char *s);
const char *rep_html_colour(size_t input);
/* The plots of one comparison, each saying which columns it shows. */
void rep_html_plots(FILE *f, const struct rep_table *t);

#endif
