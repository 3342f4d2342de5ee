/* sigsys.h - the SIGSYS handler that records what dispatch trapped. */
#ifndef SHIM_SIGSYS_H
#define SHIM_SIGSYS_H

/* Find ld.so's text (its calls are VMT_EV_LOADER) and take SIGSYS;
 * 0, or -1 when the handler could not be installed. */
int sigsys_install(void);

#endif
