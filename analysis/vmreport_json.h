/* vmreport_json.h - the comparison as JSON, for scripts. */
#ifndef VMREC_VMREPORT_JSON_H
#define VMREC_VMREPORT_JSON_H

#include <stdio.h>

#include "analysis/vmreport_compare.h"

#define REP_JSON_VERSION 1

void rep_write_json(FILE *f, const struct rep_table *t);

#endif
