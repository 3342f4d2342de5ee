/* vmt_raw.c - where vmt_raw.h's gate lives: a file of its own, below
 * every file that issues raw system calls (the store, the output file),
 * so none of them needs another for it. */
#include <stdint.h>
#include "vmt_raw.h"

void *vmt_raw_gate;
