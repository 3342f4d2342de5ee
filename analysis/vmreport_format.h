/* vmreport_format.h - how numbers, labels and hosts are written, shared
 * by the text, markdown, JSON and HTML outputs. */
#ifndef VMREC_VMREPORT_FORMAT_H
#define VMREC_VMREPORT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/vmreport_compare.h"

/* LKP's value format without padding: %.2f below 1000, %.4g above 1e8,
 * else a whole number. */
void rep_fmt_value(char *buf, size_t len, double v);
/* "+6.0%", "+inf%" when the base is 0; "" when there is nothing to say. */
void rep_fmt_change(char *buf, size_t len, const struct rep_cell *c);
/* The evidence for a cell: "q=0.012", "q<0.001", the difference of an
 * exact comparison ("+1") or "". */
void rep_fmt_p(char *buf, size_t len, const struct rep_cell *c);
/* What a cell says beside its row: "regression q=0.003", "changed +1",
 * "not comparable" (its replay's fidelity) or "". */
void rep_fmt_flag(char *buf, size_t len, const struct rep_cell *c);
/* The statistic of the report in one paragraph (no line breaks). */
void rep_fmt_statistic(char *buf, size_t len, const struct rep_table *t);
/* "24 more rows folded (17 the same in every column, 7 without a flag)",
 * or "all 24 rows folded (...)"; only when some are. */
void rep_fmt_folded(char *buf, size_t len, const struct rep_table *t);
/* Calls EMIT once per warning (WARNING true) or note about a column: its
 * fidelity and its drift, in column order, without a trailing newline. */
void rep_each_column_note(const struct rep_table *t,
			  void (*emit)(const char *line, bool warning, void *arg), void *arg);
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
