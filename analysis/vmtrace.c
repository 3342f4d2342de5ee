#include <stdio.h>

int main(void)
{
	fprintf(stderr, "vmtrace: not yet implemented\n");
	return 2;
}
