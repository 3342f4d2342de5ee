/* highfd.c - a descriptor the recorder keeps (a /proc file it reads
 * again and again) sits at a high number, so the program's own open()
 * gets the numbers it would get natively and a program that closes or
 * dup2s low descriptors never hits one of ours. */
#include "highfd.h"
#include "raw.h"

#include <fcntl.h>
#include <sys/syscall.h>

#define HIGH_FD 900

int shim_move_high(long fd)
{
	if (raw_failed(fd))
		return (int)fd;
	long hi = raw3(SYS_fcntl, fd, F_DUPFD_CLOEXEC, HIGH_FD);
	if (raw_failed(hi))
		return (int)fd;
	raw1(SYS_close, fd);
	return (int)hi;
}
