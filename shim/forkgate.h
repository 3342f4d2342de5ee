/* forkgate.h - a fork's copy of the address space at a known place in the
 * trace's order.  While a thread forks, the other threads of its process
 * start no recorded call, and it forks only once those in flight have
 * ended: no call of the parent overlaps the fork in time, so the child's
 * copy holds exactly the calls before it (docs/shim-processes.md, "Fork
 * from a threaded program"). */
#ifndef SHIM_FORKGATE_H
#define SHIM_FORKGATE_H

/* Around the outermost recorded call of a thread (call_begin/call_end):
 * enter gives 1 when it marked the thread in flight, and only then does
 * the call leave. */
int forkgate_enter(void);
void forkgate_leave(void);
/* A nested call's entry (a signal handler's, inside a recorded call):
 * 1 when it passed the gate itself (forkgate_leave at its end). */
int forkgate_nested(void);
/* Around a fork (a clone without CLONE_VM): close before the call's seq is
 * taken, open after it returned (the parent) or in the child. */
void forkgate_close(void);
void forkgate_open(void);
void forkgate_child(void);
/* Around an exec (not a vfork child's): close before the call's seq is
 * taken, forkgate_open after it failed.  The kernel ends the other
 * threads once it succeeds, wherever they are: those in flight end their
 * calls first, and the others wait at the gate, where no call has begun. */
void forkgate_exec(void);
/* The process exits (before its exit event): no other thread starts a
 * recorded call from here on, and those in flight end first, so the
 * process's END follows every call it made. */
void forkgate_exit(void);
/* 1 once this process forked while another of its threads had made a
 * recorded call: what those threads' calls left for a moment then
 * reaches a child's first checkpoint (neighbours.c asks about their
 * holes from then on).  A fork child keeps its parent's. */
extern int forkgate_forked_threaded;
/* In call_end of the outermost call, once the call's end is read: the
 * next call of the process may take its seq (forkgate.c, `order`). */
void forkgate_order_done(void);
/* VMREC_TEST_SIGNAL=gate-entry:SIG (record.c): a call that finds the gate
 * closed sends its thread SIG while its mark is still set. */
extern int forkgate_test_sig;
/* A thread's end hands its writer back inside hold/leave: a fork or an
 * exit waits for it as for a call in flight (1: held; 0: the thread is in
 * flight already, or forks). */
int forkgate_hold(void);
/* A new thread (its TLS may be a finished thread's), and one that ends. */
void forkgate_thread_start(void);
void forkgate_thread_gone(void);

#endif
