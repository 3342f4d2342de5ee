/* placeholder until the strace-style formatter lands */
#include <stdio.h>
#include "analysis/sysfmt.h"

size_t sysfmt_call(char *buf, size_t size, const struct vmt_event *ev)
{
	return (size_t)snprintf(buf, size, "syscall_%u(...) = %lld", ev->sys,
	                        (long long)ev->result);
}
