/* selfrec.h - a test program records its own VMA calls with their stacks
 * and writes them as a vmrec trace, so the symbolisation tests do not
 * depend on the shim.  glibc calls its mmap wrappers directly (no PLT), so
 * the calls are caught with a seccomp trap, not by interposition. */
#ifndef SELFREC_H
#define SELFREC_H

/* Trap mmap, munmap, mprotect, mremap and brk from now on, in every thread
 * created later.  Exits on failure (the kernel refused the filter). */
void selfrec_start(void);

/* Stop recording and write the calls, the loaded modules and the stacks to
 * path.  Returns 0, or -1 after printing why. */
int selfrec_write(const char *path, int argc, char **argv);

#endif
