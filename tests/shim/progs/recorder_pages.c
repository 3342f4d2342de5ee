/* Prints how many pages of libvmrec.so's writable data this process has
 * written by main (its private copies: pagemap's present bit without the
 * file-page bit), then each such page's offset in the file.  Run
 * recorded, it shows what the recorder's start-up writes in every
 * process (tests/shim/startup-pages.t). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	int pm = open("/proc/self/pagemap", O_RDONLY);
	char line[4096], list[4096] = "";
	int n = 0;
	if (!maps || pm < 0)
		return 1;
	while (fgets(line, sizeof line, maps)) {
		unsigned long a, b, off;
		char perm[8];
		if (!strstr(line, "/libvmrec.so") || sscanf(line, "%lx-%lx %7s %lx", &a, &b, perm, &off) != 4 ||
		    perm[1] != 'w')
			continue;
		for (unsigned long p = a; p < b; p += 4096) {
			uint64_t e = 0;
			if (pread(pm, &e, sizeof e, (off_t)(p / 4096 * 8)) != (ssize_t)sizeof e)
				return 1;
			if ((e >> 63 & 1) && !(e >> 61 & 1)) {
				n++;
				snprintf(list + strlen(list), sizeof list - strlen(list), " %#lx", off + (p - a));
			}
		}
	}
	printf("%d\n%s\n", n, list);
	return 0;
}
