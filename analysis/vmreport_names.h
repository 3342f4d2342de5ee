/* vmreport_names.h - metric name -> index, in constant time: a report
 * looks every name of every file up once, so a linear search made it
 * quadratic in the number of metrics (50,000 metrics took 29 s). */
#ifndef VMREC_VMREPORT_NAMES_H
#define VMREC_VMREPORT_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* Open addressing over indices into the caller's own array of names; the
 * table keeps no strings, only where they are. */
struct rep_names {
	size_t *slot;          /* index + 1; 0: empty */
	size_t cap, n;         /* cap: a power of two, at least twice n */
};

/* The index of NAME, or -1.  NAMES(I, ARG) gives the name at index I. */
typedef const char *rep_name_at(size_t i, const void *arg);
long rep_names_find(const struct rep_names *h, const char *name, rep_name_at *at, const void *arg);
/* Adds index I (whose name is at(I)); -1 when out of memory. */
int rep_names_add(struct rep_names *h, size_t i, rep_name_at *at, const void *arg);
void rep_names_free(struct rep_names *h);

#endif
