/* vmt_check.h - the checker is declared in vmt.h.  This name stays only
 * while shim/vmrec.c and replay/trace.c include it; it goes with them. */
#ifndef VMT_CHECK_H
#define VMT_CHECK_H

#include "vmt.h"

#endif
