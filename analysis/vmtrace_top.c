/* placeholder: `vmtrace top` */
#include <stdio.h>

int vmtrace_top_main(int argc, char **argv);

int vmtrace_top_main(int argc, char **argv)
{
	(void)argc; (void)argv;
	fprintf(stderr, "vmtrace top: not yet implemented\n");
	return 2;
}
