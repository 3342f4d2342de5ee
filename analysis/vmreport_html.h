/* vmreport_html.h - one self-contained HTML page: the table, and SVG plots
 * of latency distributions, VMA counts and merge outcomes. */
#ifndef VMREC_VMREPORT_HTML_H
#define VMREC_VMREPORT_HTML_H

#include <stdio.h>

#include "analysis/vmreport_compare.h"

/* One page for N comparisons (one per trace with --by-trace). */
void rep_write_html(FILE *f, const struct rep_table *const *tables, size_t n);

#endif
