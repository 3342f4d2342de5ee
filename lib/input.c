/* input.c - open a stream input (input.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/input.h"

FILE *input_open(const char *path, const char **why)
{
	/* O_NONBLOCK: a FIFO with no writer opens at once (and reads as
	 * empty) instead of waiting; reads block again below */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		errno = e;
		*why = strerror(e);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		*why = S_ISDIR(st.st_mode) ? strerror(EISDIR) : "not a regular file or a pipe";
		return NULL;
	}
	FILE *f = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0 ? fdopen(fd, "rb") : NULL;
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
		*why = strerror(e);
	}
	return f;
}
