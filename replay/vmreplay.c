#include <stdio.h>

int main(void)
{
	fprintf(stderr, "vmreplay: not yet implemented\n");
	return 2;
}
