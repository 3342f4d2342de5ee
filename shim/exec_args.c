/* exec_args.c - an execve's argv and envp count as its ARGV record
 * (docs/trace-format.md): argv as strace -s 32 shows it, read without
 * faulting (umem.h), so a bad pointer is recorded, not followed. */
#include "exec.h"
#include "arena.h"
#include "record.h"
#include "umem.h"

#include <string.h>

#define ARG_BYTES 32     /* strace's -s default: bytes of a string shown */
#define ARG_MAX 32       /* and elements of an array */

struct argv_buf {
	uint64_t ptrs[ARG_MAX + 1];
	uint32_t got[ARG_MAX];
	struct vmt_arg args[ARG_MAX];
	char text[ARG_MAX][ARG_BYTES + 1];
};

/* argv's elements: like strace, a string is cut when no NUL comes within
 * ARG_BYTES + 1 bytes, and unreadable when it cannot be read to one. */
static void read_argv(struct vmt_argv *a, struct argv_buf *b, char *const argv[])
{
	a->argc = 0;
	a->argv_end = VMT_ARGV_FAULT;       /* NULL or unreadable: not read */
	a->args = b->args;
	if (!argv)
		return;
	size_t slots = umem_copy(b->ptrs, argv, sizeof b->ptrs, 8) / 8;
	uint32_t n = 0;
	for (;; n++) {
		if (n == slots)
			break;                  /* stays FAULT */
		if (!b->ptrs[n]) {
			a->argv_end = VMT_ARGV_NULL;
			break;
		}
		if (n == ARG_MAX) {
			a->argv_end = VMT_ARGV_MORE;
			break;
		}
	}
	umem_heads(&b->text[0][0], ARG_BYTES + 1, b->ptrs, n, b->got);
	for (uint32_t i = 0; i < n; i++) {
		struct vmt_arg *e = &b->args[i];
		char *t = b->text[i];
		if (memchr(t, 0, b->got[i])) {
			*e = (struct vmt_arg){ VMT_ARG_STR, t, 0 };
		} else if (b->got[i] == ARG_BYTES + 1) {
			t[ARG_BYTES] = '\0';
			*e = (struct vmt_arg){ VMT_ARG_CUT, t, 0 };
		} else {
			*e = (struct vmt_arg){ VMT_ARG_FAULT, NULL, b->ptrs[i] };
		}
	}
	a->argc = n;
}

void exec_args_record(uint64_t seq, int32_t pid, char *const argv[], uint64_t envc,
                      uint32_t envp_end)
{
	struct argv_buf *b = arena_alloc(sizeof *b);
	if (!b)
		return;
	struct vmt_record rec = { .type = VMT_REC_ARGV };
	rec.u.argv = (struct vmt_argv){ .seq = seq, .pid = pid, .envc = envc, .envp_end = envp_end };
	read_argv(&rec.u.argv, b, argv);
	if (shim_vfork_child)
		shim_vfork_write(&rec);
	else
		shim_write(&rec);
	arena_free(b, sizeof *b);
}
