/* signals.h - the signals the recorder handles itself (SIGSYS for the trap
 * path, fatal signals to flush the trace), while the program keeps its own
 * view of them through sigaction() and signal(). */
#ifndef SHIM_SIGNALS_H
#define SHIM_SIGNALS_H

#include <signal.h>

/* Install `fn` for `sig`, remembering what the program had. */
int signals_own(int sig, void (*fn)(int, siginfo_t *, void *), int flags);
/* Give a signal the recorder does not want to the program's disposition. */
void signals_forward(int sig, siginfo_t *si, void *ctx);
/* Flush handlers for the fatal signals whose action is still the default. */
void signals_catch_fatal(void);

#endif
