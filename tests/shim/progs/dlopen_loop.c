/* dlopen/dlclose of a library nobody else loaded: the dynamic loader maps
 * and unmaps it with its own private copies of mmap/mprotect/munmap. */
#include "marker.h"
#include <dlfcn.h>
#include <stdio.h>

int main(void)
{
	MAIN_STARTS();
	int ok = 1;
	for (int i = 0; i < 3; i++) {
		void *h = dlopen("libutil.so.1", RTLD_NOW | RTLD_LOCAL);
		ok &= h != NULL;
		if (h)
			dlclose(h);
	}
	puts(ok ? "PASS" : "FAIL");
	return 0;
}
