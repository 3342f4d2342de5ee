/* vm_entry.c - the --vm back end on its own, as `vmreplay --vm` runs it,
 * so its tests do not depend on the rest of vmreplay. */
#include "replay/vm/vm.h"

int main(int argc, char **argv)
{
	return vm_replay_main(argc, argv);
}
