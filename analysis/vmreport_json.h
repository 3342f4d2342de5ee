/* vmreport_json.h - the comparison as JSON, for scripts. */
#ifndef VMREC_VMREPORT_JSON_H
#define VMREC_VMREPORT_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/vmreport_compare.h"

#define REP_JSON_VERSION 1

/* One object, or with AS_ARRAY an array of one object per table. */
void rep_write_json(FILE *f, const struct rep_table *const *tables, size_t n, bool as_array);

#endif
