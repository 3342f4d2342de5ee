#include <stdio.h>

int main(void)
{
	fprintf(stderr, "vmreport: not yet implemented\n");
	return 2;
}
