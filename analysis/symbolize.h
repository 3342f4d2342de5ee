/* symbolize.h - offline symbolisation of recorded call stacks. */
#ifndef VMREC_SYMBOLIZE_H
#define VMREC_SYMBOLIZE_H

#include <stdint.h>
#include <stdio.h>

struct sym_session;

/* Open the symbol view of a trace (reads its module records; uses and fills
 * a cache beside it).  NULL with a one-line message in err on failure. */
struct sym_session *sym_open(const char *trace_path, char *err, size_t errlen);

/* Print a stack as `strace -k` does, one frame a line:
 *  " > /usr/lib/x86_64-linux-gnu/libc.so.6(__mmap+0x2a) [0x1019ca]" */
void sym_print_stack(struct sym_session *s, FILE *out, int32_t pid,
                     const uint64_t *ips, uint32_t depth);

void sym_close(struct sym_session *s);

#endif
