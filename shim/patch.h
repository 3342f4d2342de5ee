/* patch.h - overwrite the entry of a libc function with an absolute jump
 * to a hook that replaces it entirely (nothing is relocated). */
#ifndef SHIM_PATCH_H
#define SHIM_PATCH_H

#include <stddef.h>
#include <stdint.h>

struct patch_site {
	const char *sym;        /* exported name in libc; NULL: found by `bytes` */
	void *hook;
	const char *bytes;      /* the exact entry bytes expected, hex, "??" any */
	int done;
	uint64_t at;            /* patched: the wrapper's entry in libc */
	uint32_t sys_end;       /* offset just past its syscall instruction, 0: unknown */
	uint32_t call_end;      /* just past the child's `call *%reg` after it, 0: none */
};

/* Patch every site; a site whose bytes differ is left alone, counted and
 * named on stderr once.  Returns the number left alone. */
int patch_sites(struct patch_site *sites, size_t n);
/* One more jump for the next patch_sites, not at a libc entry: the code
 * matching `bytes` (at least 13 of them, entered only at their start)
 * within 64 KiB of libc's exported `near` jumps to `to`; left alone,
 * quietly, where it is not found. */
void patch_extra(const char *near, const char *bytes, void *to);
/* For an address inside one of the patched sites' hooks, where the call
 * would have been in libc's wrapper (its syscall instruction, as strace -k
 * shows it); 0 when the address is in no hook. */
uint64_t patch_wrapper_ip(const struct patch_site *sites, size_t n, uint64_t hook_ip);
/* For a return address inside a clone hook found as a thread's outermost
 * frame (the hook called the thread's function), the same return address
 * in libc's wrapper (its child's `call *%reg`); 0 when there is none. */
uint64_t patch_wrapper_return_ip(const struct patch_site *sites, size_t n, uint64_t hook_ip);
/* libc's own definition of an exported symbol (no allocation). */
void *patch_libc_symbol(const char *name);
/* Whether addr is in libc's text (known once patching has looked). */
int patch_in_libc(uint64_t addr);
/* Address of libc's text, for the dispatch exemption. */
void patch_libc_text(unsigned long *start, unsigned long *len);

#endif
