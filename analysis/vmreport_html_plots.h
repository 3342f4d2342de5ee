/* vmreport_html_plots.h - the SVG plots of one comparison, for the HTML
 * page (vmreport_html.c). */
#ifndef VMREC_VMREPORT_HTML_PLOTS_H
#define VMREC_VMREPORT_HTML_PLOTS_H

#include <stdio.h>

#include "analysis/vmreport_compare.h"

/* The plots of one comparison, each saying which columns it shows. */
void rep_html_plots(FILE *f, const struct rep_table *t);

#endif
