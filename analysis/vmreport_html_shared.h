/* vmreport_html_shared.h - what the HTML page and its plots both write. */
#ifndef VMREC_VMREPORT_HTML_SHARED_H
#define VMREC_VMREPORT_HTML_SHARED_H

#include <stddef.h>
#include <stdio.h>

/* s with <, >, & and " escaped (NULL writes nothing). */
void rep_html_esc(FILE *f, const char *s);
/* Input (column) number input's colour, the same in every table and plot. */
const char *rep_html_colour(size_t input);

#endif
