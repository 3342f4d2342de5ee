/* umem.h - the program's memory read without ever faulting.  execve's
 * path, argv and envp are the program's pointers: a bad one must give the
 * kernel's EFAULT in the program, never a crash in the recorder.  Reads go
 * through process_vm_readv on this very task (always allowed on oneself);
 * where a seccomp filter refuses it, they fall back to plain loads that
 * stop at the terminator, as the recorder read these arrays before. */
#ifndef SHIM_UMEM_H
#define SHIM_UMEM_H

#include <stddef.h>
#include <stdint.h>

struct capture_mem;

/* The task whose memory is read: this process (a vfork child: its own pid). */
void umem_self(int32_t pid);
/* Up to n bytes at src into dst, as elements of `unit` bytes (1: a
 * string, 8: an array of pointers, 0: plain bytes); returns the bytes
 * copied, fewer when the memory after them cannot be read (the fallback
 * also stops after the first zero element; for plain bytes there is none:
 * 0). */
size_t umem_copy(void *dst, const void *src, size_t n, size_t unit);
/* The first `each` bytes of n strings: ptrs[i]'s into dst + i * each and
 * got[i] the bytes read (fewer at an unreadable byte; the fallback also
 * after a NUL).  Few system calls for many strings. */
void umem_heads(char *dst, size_t each, const uint64_t *ptrs, size_t n, uint32_t *got);
/* The length of the string at src if it ends within max bytes, else -1. */
long umem_strlen(const char *src, size_t max);
/* This process's memory for capture.c's readers. */
extern const struct capture_mem umem_capture;

#endif
