/* preload.c - selfrec as an LD_PRELOAD library, to record stacks of any
 * program (python3 for the symbolisation benchmark) until the shim's
 * `vmrec --stacks` records them:  SELFREC_OUT=t.vmt LD_PRELOAD=... prog */
#include <stdlib.h>
#include "selfrec.h"

__attribute__((constructor)) static void selfrec_preload_start(void)
{
	if (getenv("SELFREC_OUT"))
		selfrec_start();
}

__attribute__((destructor)) static void selfrec_preload_stop(void)
{
	char *argv[] = { "preloaded", NULL };
	const char *out = getenv("SELFREC_OUT");

	if (out)
		selfrec_write(out, 1, argv);
}
