/* vmtrace_seqs.c - see vmtrace_seqs.h. */
#include <stdlib.h>
#include "analysis/vmtrace_seqs.h"

int vmtrace_seqs_add(struct vmtrace_seqs *s, const struct vmt_record *rec)
{
	uint64_t seq;
	switch (rec->type) {
	case VMT_REC_EVENT: seq = rec->u.event.seq; break;
	case VMT_REC_PROCESS: seq = rec->u.process.seq; break;
	case VMT_REC_CHECKPOINT: seq = rec->u.checkpoint.seq; break;
	case VMT_REC_END: seq = rec->u.end.seq; break;
	default: return 0;
	}
	if (s->failed)
		return -1;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4096;
		uint64_t *v = realloc(s->v, cap * sizeof *v);
		if (!v) {
			s->failed = 1;
			return -1;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = seq;
	return 0;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

uint64_t vmtrace_seqs_missing(struct vmtrace_seqs *s, uint64_t *first)
{
	uint64_t missing = 0;
	*first = 0;
	if (s->n)
		qsort(s->v, s->n, sizeof *s->v, by_value);
	for (size_t i = 1; i < s->n; i++)
		if (s->v[i] > s->v[i - 1] + 1) {
			if (!missing)
				*first = s->v[i - 1] + 1;
			missing += s->v[i] - s->v[i - 1] - 1;
		}
	return missing;
}

void vmtrace_seqs_free(struct vmtrace_seqs *s)
{
	free(s->v);
	*s = (struct vmtrace_seqs){ 0 };
}
