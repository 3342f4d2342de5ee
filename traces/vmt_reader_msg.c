/* vmt_reader_msg.c - the reader's one-line error messages ("PATH: what"),
 * written by every part of the reader (vmt_reader.c, vmt_chunks.c,
 * vmt_merge.c, vmt_order.c); below them all, so none needs another for it. */
#include <stdarg.h>
#include <stdio.h>
#include "vmt_reader_int.h"

int vmt_rd_set_error(char *buf, const char *path, int err, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(buf, MSG_SIZE, "%s: ", path);
	if (n < 0 || n >= MSG_SIZE)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(buf + n, (size_t)(MSG_SIZE - n), fmt, ap);
	va_end(ap);
	return err;
}
