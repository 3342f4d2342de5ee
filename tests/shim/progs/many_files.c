/* many_files N DIR: makes N one-page files in DIR, maps and unmaps each
 * in turn, twice; then a fork child maps the first one and exits.  The
 * recorder names each file once per process, with the same id at each
 * mapping (file-ids.t). */
#include "marker.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void map_one(const char *dir, int i)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/f%d", dir, i);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		exit(3);
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		exit(4);
	munmap(p, 4096);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	int n = atoi(argv[1]);
	char path[4096], page[4096] = { 1 };
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/f%d", argv[2], i);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || write(fd, page, sizeof page) != (ssize_t)sizeof page)
			return 3;
		close(fd);
	}
	MAIN_STARTS();
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++)
			map_one(argv[2], i);
	pid_t c = fork();
	if (c == 0) {
		map_one(argv[2], 0);
		_exit(0);
	}
	int st;
	waitpid(c, &st, 0);
	puts("mapped");
	return 0;
}
