/* cpio_test.c - the newc archive the kernel unpacks as the initramfs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/tap.h"
#include "replay/vm/vm_cpio.h"

/* Field k (0 = ino ... 12 = check) of the header at p, as a number. */
static unsigned long field(const char *p, int k)
{
	char hex[9];

	memcpy(hex, p + 6 + 8 * k, 8);
	hex[8] = 0;
	return strtoul(hex, NULL, 16);
}

int main(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct vm_cpio c;

	vm_cpio_begin(&c, f);
	vm_cpio_dir(&c, "dev", 0755);
	vm_cpio_chardev(&c, "dev/ttyS1", 4, 65);
	vm_cpio_data(&c, "jobs/0/args", 0644, "a\0bc\0", 5);
	is_int(vm_cpio_file(&c, "x", 0644, "/no/such/file"), -1, "a missing file is an error");
	is_int(vm_cpio_end(&c), 0, "archive written");
	fclose(f);

	/* 110-byte header + name padded to 4, then data padded to 4 */
	is_int(len, 116 + 120 + 132 + 124, "total size");
	ok(!memcmp(buf, "070701", 6), "newc magic");
	is_int(field(buf, 1), 040755, "dir mode");
	is_int(field(buf, 11), 4, "dir namesize counts the NUL");
	const char *dev = buf + 116;
	is_int(field(dev, 1), 020600, "char device mode");
	is_int(field(dev, 9), 4, "rdevmajor");
	is_int(field(dev, 10), 65, "rdevminor");
	const char *args = dev + 120;
	is_int(field(args, 6), 5, "file size");
	ok(!memcmp(args + 110, "jobs/0/args\0", 12), "file name");
	ok(!memcmp(args + 124, "a\0bc\0\0\0\0", 8), "file data, padded");
	const char *end = args + 132;
	ok(!memcmp(end + 110, "TRAILER!!!", 11), "trailer last");
	is_int(len % 4, 0, "archive size a multiple of 4");
	free(buf);
	return done_testing();
}
