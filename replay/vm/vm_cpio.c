/* vm_cpio.c - the newc cpio writer behind the guest's initramfs. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "replay/vm/vm_cpio.h"

static void pad4(struct vm_cpio *c)
{
	while (ftell(c->out) % 4)
		putc(0, c->out);
}

static void header(struct vm_cpio *c, const char *name, mode_t mode,
                   size_t size, unsigned major, unsigned minor)
{
	size_t namesize = strlen(name) + 1;

	/* magic, ino, mode, uid, gid, nlink, mtime, filesize, devmajor,
	 * devminor, rdevmajor, rdevminor, namesize, check */
	fprintf(c->out, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
	        ++c->ino, (unsigned)mode, 0u, 0u, S_ISDIR(mode) ? 2u : 1u, 0u,
	        size, 0u, 0u, major, minor, namesize, 0u);
	fwrite(name, 1, namesize, c->out);
	pad4(c);
}

void vm_cpio_begin(struct vm_cpio *c, FILE *out)
{
	c->out = out;
	c->ino = 0;
	c->failed = 0;
}

void vm_cpio_dir(struct vm_cpio *c, const char *name, mode_t perm)
{
	header(c, name, S_IFDIR | perm, 0, 0, 0);
}

void vm_cpio_chardev(struct vm_cpio *c, const char *name, unsigned major,
                     unsigned minor)
{
	header(c, name, S_IFCHR | 0600, 0, major, minor);
}

void vm_cpio_data(struct vm_cpio *c, const char *name, mode_t perm,
                  const void *data, size_t len)
{
	header(c, name, S_IFREG | perm, len, 0, 0);
	fwrite(data, 1, len, c->out);
	pad4(c);
}

int vm_cpio_file(struct vm_cpio *c, const char *name, mode_t perm,
                 const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char buf[65536];

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		int e = S_ISREG(st.st_mode) ? errno : EINVAL;
		close(fd);
		return errno = e, -1;
	}
	header(c, name, S_IFREG | perm, (size_t)st.st_size, 0, 0);
	off_t left = st.st_size;
	while (left > 0) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* the file shrank under us: the archive is now wrong */
			c->failed = 1;
			break;
		}
		fwrite(buf, 1, (size_t)n, c->out);
		left -= n;
	}
	close(fd);
	pad4(c);
	return 0;
}

int vm_cpio_end(struct vm_cpio *c)
{
	header(c, "TRAILER!!!", 0, 0, 0, 0);
	if (fflush(c->out) || ferror(c->out))
		c->failed = 1;
	return c->failed ? -1 : 0;
}
