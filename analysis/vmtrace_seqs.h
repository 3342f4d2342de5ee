/* vmtrace_seqs.h - the seqs a trace's records hold as positions (events,
 * processes, checkpoints and ENDs each take one of the tree's counter),
 * and how many between the first and the last none holds: against the
 * ENDs' lost count, a record the recorder lost without a word (vmtrace
 * check and vmtrace stats). */
#ifndef VMTRACE_SEQS_H
#define VMTRACE_SEQS_H
#include <stddef.h>
#include <stdint.h>
#include "vmt.h"

struct vmtrace_seqs { uint64_t *v; size_t n, cap; int failed; };

/* Keeps rec's seq where it holds one; -1 out of memory (then failed). */
int vmtrace_seqs_add(struct vmtrace_seqs *s, const struct vmt_record *rec);
/* The seqs no record holds, and in *first the lowest of them. */
uint64_t vmtrace_seqs_missing(struct vmtrace_seqs *s, uint64_t *first);
void vmtrace_seqs_free(struct vmtrace_seqs *s);

#endif
