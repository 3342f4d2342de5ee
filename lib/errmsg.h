/* errmsg.h - the one-line message of a failed call.  Many functions of
 * lib/ and analysis/ report a problem as -1 with a message in the caller's
 * buffer (char *err, size_t errlen); errmsg writes it. */
#ifndef VMREC_ERRMSG_H
#define VMREC_ERRMSG_H

#include <stddef.h>

/* Formats the message into ERR (ERRLEN bytes, cut short if need be) and
 * returns -1, so a failure reads "return errmsg(err, errlen, ...)". */
__attribute__((format(printf, 3, 4)))
int errmsg(char *err, size_t errlen, const char *fmt, ...);

#endif
