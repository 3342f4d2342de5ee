/* Maps 1 MiB 200 times under its address-space limit and prints how many
 * mappings it got: as many under the recorder as natively. */
#include <stdio.h>
#include <sys/mman.h>

int main(void)
{
	int got = 0;
	for (int i = 0; i < 200; i++)
		if (mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) !=
		    MAP_FAILED)
			got++;
	printf("%d\n", got);
	return 0;
}
