#include <stdio.h>

int main(void)
{
	fprintf(stderr, "vmrec: not yet implemented\n");
	return 2;
}
