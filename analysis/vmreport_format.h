/* vmreport_format.h - how numbers, labels and hosts are written, shared
 * by the text, markdown, JSON and HTML outputs. */
#ifndef VMREC_VMREPORT_FORMAT_H
#define VMREC_VMREPORT_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/vmreport_compare.h"

/* LKP's value format without padding: %.2f below 1000, %.4g above 1e8,
 * else a whole number. */
void rep_fmt_value(char *buf, size_t len, double v);
/* "+6.0%", "+inf%" when the base is 0; "" when there is nothing to say. */
void rep_fmt_change(char *buf, size_t len, const struct rep_cell *c);
/* "p=0.012", "p<0.001", "exact" or "" */
void rep_fmt_p(char *buf, size_t len, const struct rep_cell *c);
/* "min–max" of a cell */
void rep_fmt_range(char *buf, size_t len, const struct rep_cell *c);
/* "AMD EPYC 7B13, 2 cores, 7.8 GiB, THP always/madvise" */
void rep_fmt_host(char *buf, size_t len, const struct rep_results *r);
/* What a cell that holds no numbers shows. */
const char *rep_cell_placeholder(const struct rep_cell *c);

/* Writes S padded with spaces to WIDTH terminal columns (UTF-8 aware);
 * RIGHT aligns right.  Longer strings are cut. */
void rep_put_padded(FILE *f, const char *s, int width, int right);

/* Comparison (1 + index) marks: "#2 " when there are more than two
 * inputs, so a verdict says which column it is about. */
void rep_fmt_column_tag(char *buf, size_t len, const struct rep_table *t, size_t i);

#endif
