/* symbolize.h - offline symbolisation of recorded call stacks.
 *
 * An ip is mapped to its module through the trace's VMT_REC_MODULE records
 * of that pid (or of its parent, for fork children that recorded none),
 * then to function+offset and file:line with elfutils' libdwfl.  Results
 * are cached beside the trace (TRACE.syms) or under $XDG_CACHE_HOME/vmrec,
 * keyed by the trace's size/mtime and the modules' files on disk.
 * docs/attribution.md describes the rules. */
#ifndef VMREC_SYMBOLIZE_H
#define VMREC_SYMBOLIZE_H

#include <stdint.h>
#include <stdio.h>
#include "vmt.h"

struct sym_session;

/* Open the symbol view of a trace (reads its module records; uses and fills
 * a cache beside it).  NULL with a one-line message in err on failure. */
struct sym_session *sym_open(const char *trace_path, char *err, size_t errlen);

/* Print a stack as `strace -k` does, one frame a line:
 *  " > /usr/lib/x86_64-linux-gnu/libc.so.6(__mmap+0x2a) [0x1019ca]"
 * A frame in a module without a symbol prints " > PATH() [0xOFFSET]", an ip
 * in no module " > [unknown] [0xIP]". */
void sym_print_stack(struct sym_session *s, FILE *out, int32_t pid,
                     const uint64_t *ips, uint32_t depth);

void sym_close(struct sym_session *s);

/* ---- for tools that read the trace themselves (vmtrace top) ---------- */

/* An empty session; trace_path (may be NULL: no cache) names the cache.
 * Feed it the trace's module and process records, then resolve. */
struct sym_session *sym_new(const char *trace_path);
int sym_add_module(struct sym_session *s, const struct vmt_module *m);
void sym_add_process(struct sym_session *s, const struct vmt_process *p);

/* Where notes about missing binaries / debug info go (default stderr;
 * NULL silences them).  Each is printed once per session. */
void sym_set_notes(struct sym_session *s, FILE *notes);

/* One resolved frame.  Strings belong to the session. */
struct sym_frame {
	const char *module;   /* path as recorded; NULL: ip in no module */
	const char *func;     /* NULL: no symbol */
	const char *file;     /* source file; NULL: no debug info */
	uint64_t func_off;    /* ip - start of func */
	uint64_t rel;         /* ip - load bias (what strace prints) */
	uint32_t line;        /* 0: unknown */
};

/* Resolve ips[i] of a stack (innermost first).  Frames i > 0 are return
 * addresses: they are looked up at ip - 1 so the call's own line shows. */
void sym_resolve(struct sym_session *s, int32_t pid, uint64_t ip,
                 int is_return_address, struct sym_frame *f);

/* "func", or "module-basename+0xrel", or "0xip": a frame's short name. */
const char *sym_frame_name(const struct sym_frame *f, char *buf, size_t len);

/* True when the frame's module is a system library whose calls are never
 * the interesting caller: libc, the dynamic loader, libvmrec. */
int sym_frame_is_system(const struct sym_frame *f);

#endif
