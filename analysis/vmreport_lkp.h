/* vmreport_lkp.h - results files as the stats records of an lkp-tests
 * parse program (lkp/programs/vmreplay/parse): no comparison, every
 * input's metrics, one record per run. */
#ifndef VMREC_VMREPORT_LKP_H
#define VMREC_VMREPORT_LKP_H

#include <stdio.h>

#include "analysis/vmreport_results.h"

/* Writes "NAME: VALUE" lines, NAME without its "vmreplay." (lkp-tests'
 * dump-stat puts the program's name back) and, when PREFIXES is not NULL,
 * after the input's prefix and a dot.  Run by run: the first run of every
 * input, then the second...: dump-stat starts a record at a name printed
 * again and fills the names a record lacks with zeros.  Timings of a run
 * in an emulated guest or in the simulator are left out.  Each input starts with '#' comment
 * lines (dump-stat skips them): its file, what ran, its reproduce line. */
void rep_write_lkp(FILE *f, const struct rep_results *in, const char *const *prefixes, size_t n);

/* 0 when S can prefix LKP stat names: not empty, no blank, no ':'. */
int rep_lkp_prefix_check(const char *s);

#endif
