/* vmreport_text.h - the terminal table (LKP layout) and its markdown form. */
#ifndef VMREC_VMREPORT_TEXT_H
#define VMREC_VMREPORT_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/vmreport_compare.h"

void rep_write_text(FILE *f, const struct rep_table *t, bool colour);
void rep_write_markdown(FILE *f, const struct rep_table *t);

#endif
