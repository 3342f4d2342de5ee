/* stacks.c - placeholder until libunwind capture lands: no stacks. */
#include "stacks.h"

int stacks_init(int depth) { (void)depth; return -1; }
uint32_t stacks_capture(int depth) { (void)depth; return 0; }
void stacks_forget(void) {}
