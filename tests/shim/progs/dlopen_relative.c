/* dlopen(argv[1]) as given (a path relative to the working directory),
 * then one mmap from main, whose stack makes the recorder describe the
 * newly loaded object. */
#include <dlfcn.h>
#include <stdio.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	if (argc != 2 || !dlopen(argv[1], RTLD_NOW)) {
		fprintf(stderr, "dlopen_relative: %s\n", argc == 2 ? dlerror() : "usage: dlopen_relative LIB");
		return 1;
	}
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(p, 4096);
	puts("PASS");
	return 0;
}
