/* Recorded calls buffered before abort() reach the trace. */
#include "marker.h"
#include <stdlib.h>

int main(void)
{
	MAIN_STARTS();
	for (int i = 0; i < 5; i++)
		mmap(NULL, 4096 * (i + 1), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	abort();
}
