/* record.h - the one path by which a hook turns a system call into trace
 * records; the recorder's state it writes through is in state.h. */
#ifndef SHIM_RECORD_H
#define SHIM_RECORD_H

#include <stdint.h>
#include "state.h"
#include "vmt.h"

/* One intercepted call, from entry to return. */
struct shim_call {
	int sys;
	uint16_t flags;
	uint8_t gated;              /* it marked the thread in flight (forkgate) */
	uint64_t args[6];
	uint64_t seq, t0, tsc0;
	uint64_t announce_seq;      /* a vfork child's PROCESS record, if due */
	uint32_t file_id;
};

uint64_t shim_now(void);
uint64_t shim_next_seq(void);
uint64_t shim_seq_now(void);

/* call_begin reserves the sequence number; call_clock takes the entry
 * time right before the system call (after any residency work); call_end
 * records the event with the kernel's raw result (-errno on failure). */
void call_begin(struct shim_call *c, int sys, uint64_t a0, uint64_t a1, uint64_t a2,
                uint64_t a3, uint64_t a4, uint64_t a5);
void call_clock(struct shim_call *c);
/* A vfork child about to exec: its PROCESS record, if not written yet. */
void shim_announce_vfork_child(const struct shim_call *c);
/* A vfork child's FILE record (written at once) and how many it wrote. */
uint32_t shim_vfork_file(uint64_t dev, uint64_t ino, uint64_t size, const char *path, uint64_t fs_type);
uint32_t shim_vfork_files(void);
/* A vfork child's ARGV record, written at once. */
void shim_vfork_write(const struct vmt_record *rec);
void call_end(struct shim_call *c, long ret);

/* Write a non-event record from the current thread (0, or lost). */
int shim_write(const struct vmt_record *rec);
/* Flush this thread's writer, or every thread's that can be claimed. */
void shim_flush_self(void);
void shim_flush_all(void);
/* After fork, in the child: forget the parent's writers without writing. */
void shim_forget_threads(void);
void shim_thread_exit(void);
/* tid: the new thread's, 0 when not known (asked with gettid) */
void shim_thread_start(int32_t tid);
void shim_threads_init(void);
void shim_output_failed(const char *what);
/* Processes that will still write: +1 before a call makes one, -1 when it
 * failed or a process leaves; the last to leave finishes the trace (unless
 * the vmrec launcher will). */
void shim_live_add(int n);
/* The process is about to exit: no call of it after this one's. */
void shim_exit_begin(void);
/* This image's END record, then leave the store. */
void shim_process_end(uint32_t how, int32_t status);

#endif
