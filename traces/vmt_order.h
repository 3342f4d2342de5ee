/* vmt_order.h - the order every reader of a trace sees (docs/trace-format.md,
 * "Order"): the records merged by seq, with the calls that overlapped in
 * time ordered by what they did, so each could have happened where it is.
 * Sits between the merge (vmt_merge.c) and vmt_reader_next.  Internal to
 * the trace library; vmt.h's vmt_reader_order_stats shows what it did. */
#ifndef VMT_ORDER_H
#define VMT_ORDER_H

#include "vmt.h"

struct vmt_reader;
struct vmt_order;

struct vmt_order *vmt_order_new(uint64_t page);
void vmt_order_free(struct vmt_order *o);
/* The next record in the derived order, pulled from the merge: as
 * vmt_reader_next. */
int vmt_order_next(struct vmt_order *o, struct vmt_reader *r, struct vmt_record *rec);
void vmt_order_stats(const struct vmt_order *o, struct vmt_order_stats *st);

#endif
