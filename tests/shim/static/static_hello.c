/* A statically linked program: the recorder cannot load into it. */
#include <stdio.h>

int main(void)
{
	puts("static PASS");
	return 4;
}
