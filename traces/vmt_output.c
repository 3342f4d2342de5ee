/* vmt_output.c - write an output file by rename (vmt.h).  Raw
 * system calls only: the trace store's finisher runs this inside recorded
 * programs, whose libc wrappers the recorder patches and whose errno is
 * theirs. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "vmt.h"
#include "vmt_raw.h"

#define sc vmt_raw6

int vmt_output_open(struct vmt_output *o, const char *path, unsigned mode)
{
	o->path = path;
	o->tmp[0] = 0;
	o->fd = -1;
	if (!path || !*path)
		return VMT_OUTPUT_EEMPTY;
	size_t len = strlen(path);
	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	/* a directory would refuse the rename anyway; a device or a FIFO
	 * would be replaced by a file, which nobody asking for one meant */
	struct stat st;
	long r = sc(SYS_newfstatat, AT_FDCWD, (long)path, (long)&st, AT_SYMLINK_NOFOLLOW, 0, 0);
	if (!vmt_raw_failed(r) && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : VMT_OUTPUT_ENOTREG;
	char *p = stpcpy(o->tmp, path);
	p = stpcpy(p, ".vmrec-tmp.");
	long pid = sc(SYS_getpid, 0, 0, 0, 0, 0, 0);
	o->pid = (int)pid;
	char digits[24], *d = digits + sizeof digits;
	*--d = 0;
	do *--d = (char)('0' + pid % 10); while (pid /= 10);
	strcpy(p, d);
	/* O_EXCL: never a file that exists, nor a symlink planted there */
	r = sc(SYS_openat, AT_FDCWD, (long)o->tmp,
	       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 07777, 0, 0);
	if (vmt_raw_failed(r)) {
		o->tmp[0] = 0;
		return (int)r;
	}
	o->fd = (int)r;
	r = sc(SYS_fchmod, o->fd, mode & 07777, 0, 0, 0, 0);   /* not the umask's */
	if (vmt_raw_failed(r)) {
		vmt_output_abort(o);
		return (int)r;
	}
	return o->fd;
}

int vmt_output_commit(struct vmt_output *o)
{
	long r = 0;
	if (o->fd >= 0)
		r = sc(SYS_close, o->fd, 0, 0, 0, 0, 0);
	o->fd = -1;
	if (!o->tmp[0])
		return -EBADF;
	if (!vmt_raw_failed(r))
		r = sc(SYS_rename, (long)o->tmp, (long)o->path, 0, 0, 0, 0);
	if (vmt_raw_failed(r)) {
		vmt_output_abort(o);
		return (int)r;
	}
	o->tmp[0] = 0;
	return 0;
}

void vmt_output_abort(struct vmt_output *o)
{
	if (o->fd >= 0)
		sc(SYS_close, o->fd, 0, 0, 0, 0, 0);
	o->fd = -1;
	if (o->tmp[0] && sc(SYS_getpid, 0, 0, 0, 0, 0, 0) == o->pid)
		sc(SYS_unlink, (long)o->tmp, 0, 0, 0, 0, 0);
	o->tmp[0] = 0;
}

const char *vmt_output_error(int err)
{
	if (err == VMT_OUTPUT_EEMPTY)
		return "empty file name";
	if (err == VMT_OUTPUT_ENOTREG)
		return "not a regular file";
	const char *s = err < 0 ? strerrordesc_np(-err) : NULL;
	return s ? s : "unknown error";
}
