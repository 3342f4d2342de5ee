/* File mappings, shared and private; argv[1] is a scratch file. */
#include "marker.h"
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	MAIN_STARTS();
	int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, 8 * 4096) < 0)
		return 1;
	char *sh = mmap(NULL, 8 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *pr = mmap(NULL, 4 * 4096, PROT_READ, MAP_PRIVATE, fd, 4096);
	sh[4096] = 7;
	int ok = pr[0] == 7;
	munmap(sh, 8 * 4096);
	munmap(pr, 4 * 4096);
	close(fd);
	puts(ok ? "PASS" : "FAIL");
	return 0;
}
