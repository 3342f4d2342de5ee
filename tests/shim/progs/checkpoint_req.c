/* A program asks for a VMA-count checkpoint of its own between two maps;
 * without the recorder the lookup finds nothing and nothing happens. */
#include "marker.h"
#include <dlfcn.h>
#include <stdio.h>

int main(void)
{
	MAIN_STARTS();
	void (*checkpoint)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "vmrec_checkpoint");
	mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (checkpoint)
		checkpoint();
	mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	puts(checkpoint ? "recorded" : "native");
	return 0;
}
