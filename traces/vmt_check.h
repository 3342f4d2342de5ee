/* vmt_check.h - the rules a trace must follow beyond decoding, in one place:
 * `vmtrace check` and vmreplay (before any target replays) both apply them,
 * so a trace one accepts the other accepts.  Records are fed in seq order
 * (VMT_ORDER_SEQ), one at a time, as they are read. */
#ifndef VMT_CHECK_H
#define VMT_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include "vmt.h"

struct vmt_check;

/* NULL when out of memory.  The header gives the page size and version. */
struct vmt_check *vmt_check_new(const struct vmt_header *h);
/* NULL, or the record's first problem (a phrase; valid until the next call). */
const char *vmt_check_record(struct vmt_check *c, const struct vmt_record *rec);
/* After the last record: references to stacks and files never defined. */
const char *vmt_check_end(struct vmt_check *c);
/* After the last record, the reader's order (vmt_reader_order_stats):
 * NULL when every call could have happened where the order puts it, else
 * the first that could not, named with what it conflicts with. */
const char *vmt_check_order(struct vmt_check *c, const struct vmt_order_stats *st);
size_t vmt_check_processes(const struct vmt_check *c);

/* How processes ended, from their END records (format version 2; a
 * version 1 trace has none): counts per enum vmt_end_how, the records the
 * recorder lost, and the first VMT_CHECK_ODD ends that were not an exit. */
#define VMT_CHECK_ODD 32
struct vmt_check_ends {
	uint64_t how[VMT_END_UNRECORDED + 1], lost;
	struct vmt_end odd[VMT_CHECK_ODD];
	size_t nodd;
};
const struct vmt_check_ends *vmt_check_ends(const struct vmt_check *c);
/* 1 when the header's format version is one this library reads. */
int vmt_check_version(const struct vmt_header *h);
uint64_t vmt_check_records(const struct vmt_check *c);   /* fed so far */
void vmt_check_free(struct vmt_check *c);

/* The whole file: 0 when it reads to its end and follows the rules; 1 when
 * the reader stopped at damage or truncation after records that follow
 * them (replayable up to there); -1 when it cannot be opened or breaks a
 * rule.  Not 0: a one-line message in msg ("PATH: bad: ... (record N)" or
 * the reader's own message). */
int vmt_check_file(const char *path, char *msg, size_t len);

#endif
