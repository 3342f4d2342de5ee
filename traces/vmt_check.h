/* vmt_check.h - the checker is declared in vmt.h.  This name stays only
 * while shim/vmrec.c includes it; it goes with it. */
#ifndef VMT_CHECK_H
#define VMT_CHECK_H

#include "vmt.h"

#endif
