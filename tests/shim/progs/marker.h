/* marker.h - the call that marks the start of main for calls.py. */
#include <sys/mman.h>
#define MAIN_STARTS() munmap(0, 0)
