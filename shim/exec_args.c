/* exec_args.c - an execve's argv and envp count as its ARGV record
 * (docs/trace-format.md): argv as strace -s 32 shows it, read without
 * faulting (capture.c over umem.h), so a bad pointer is recorded, not
 * followed. */
#include "exec.h"
#include "arena.h"
#include "capture.h"
#include "record.h"
#include "umem.h"

void exec_args_record(uint64_t seq, int32_t pid, char *const argv[], uint64_t envc,
                      uint32_t envp_end)
{
	struct capture_argv_buf *b = arena_alloc(sizeof *b);
	if (!b)
		return;
	struct vmt_record rec = { .type = VMT_REC_ARGV };
	rec.u.argv = (struct vmt_argv){ .seq = seq, .pid = pid, .envc = envc, .envp_end = envp_end };
	capture_argv(&rec.u.argv, b, (uint64_t)(uintptr_t)argv, &umem_capture);
	if (shim_vfork_child)
		shim_vfork_write(&rec);
	else
		shim_write(&rec);
	arena_free(b, sizeof *b);
}
