/* highfd.h - the recorder's descriptors, out of the program's way. */
#ifndef SHIM_HIGHFD_H
#define SHIM_HIGHFD_H

/* fd moved to a high number (close-on-exec); fd itself when it cannot be
 * moved, or the error it carries. */
int shim_move_high(long fd);

#endif
