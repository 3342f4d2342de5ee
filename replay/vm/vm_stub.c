/* placeholder until the QEMU back end lands */
#include <stdio.h>
#include "replay/vm/vm.h"

int vm_replay_main(int argc, char **argv)
{
	(void)argc; (void)argv;
	fprintf(stderr, "vmreplay --vm: not yet implemented\n");
	return 2;
}
