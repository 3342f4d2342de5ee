/* signals.c - signals the recorder owns, virtualised for the program.
 *
 * SIGSYS stays the recorder's while dispatch is armed: the program's
 * handler is kept here and called for SIGSYS that dispatch did not raise.
 * A fatal signal whose action is the default gets a handler that flushes
 * the trace and dies the default way; the program still sees SIG_DFL, and
 * as soon as it installs a handler or ignores the signal, the kernel gets
 * exactly what it asked for. */
#include "signals.h"
#include "patch.h"
#include "raw.h"
#include "record.h"
#include "sud.h"

#include <string.h>
#include <sys/syscall.h>

/* The program's view of each action, as the kernel keeps one: handler,
 * flags, restorer and the kernel's 64-bit mask (152 bytes a signal as a
 * struct sigaction: three pages of .bss touched at start-up, not one). */
struct app_action { void *handler; void (*restorer)(void); uint64_t mask; int flags; };
static struct app_action app[_NSIG];

static void app_set(int sig, const struct sigaction *sa)
{
	app[sig] = (struct app_action){ .handler = (void *)sa->sa_handler,
	                                .restorer = sa->sa_restorer, .flags = sa->sa_flags };
	memcpy(&app[sig].mask, &sa->sa_mask, sizeof app[sig].mask);
}

/* As glibc's sigaction fills `old`: the kernel's 64 bits of the mask,
 * the rest of the caller's sigset_t left as it was. */
static void app_get(int sig, struct sigaction *old)
{
	old->sa_handler = (__sighandler_t)app[sig].handler;
	old->sa_restorer = app[sig].restorer;
	old->sa_flags = app[sig].flags;
	memcpy(&old->sa_mask, &app[sig].mask, sizeof app[sig].mask);
}
static unsigned char owned[_NSIG];          /* our handler is in the kernel */
static unsigned char fatal[_NSIG];          /* one of signals_catch_fatal's */
static int (*libc_sigaction)(int, const struct sigaction *, struct sigaction *);

static int real_sigaction(int sig, const struct sigaction *sa, struct sigaction *old)
{
	if (!libc_sigaction)
		libc_sigaction = patch_libc_symbol("sigaction");
	return libc_sigaction ? libc_sigaction(sig, sa, old) : -1;
}

int signals_own(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa = { .sa_sigaction = fn, .sa_flags = flags | SA_SIGINFO }, old;
	if (real_sigaction(sig, &sa, &old) < 0)
		return -1;
	app_set(sig, &old);
	owned[sig] = 1;
	return 0;
}

static void die_by_default(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	real_sigaction(sig, &dfl, NULL);
	owned[sig] = 0;
	raw3(SYS_tgkill, raw0(SYS_getpid), raw0(SYS_gettid), sig);   /* on return */
}

void signals_forward(int sig, siginfo_t *si, void *ctx)
{
	struct sigaction sa;
	app_get(sig, &sa);
	if (sa.sa_handler == SIG_IGN)
		return;
	if (sa.sa_handler == SIG_DFL)
		die_by_default(sig);
	else if (sa.sa_flags & SA_SIGINFO)
		sa.sa_sigaction(sig, si, ctx);
	else
		sa.sa_handler(sig);
}

/* The signal whose one call in signals_catch_fatal is in flight: one
 * arriving then is held until the program's disposition is known. */
static volatile sig_atomic_t probing, arrived;

static void on_fatal(int sig, siginfo_t *si, void *ctx)
{
	(void)si; (void)ctx;
	if (probing == sig) {
		arrived = 1;
		return;
	}
	uint8_t sud = sud_enter();
	shim_process_end(VMT_END_SIGNAL, sig);
	die_by_default(sig);
	sud_leave(sud);
}

/* One call a signal: ours goes in and the old action comes back; where
 * that was not the default (ignored, or a handler the program set before
 * this constructor), the old one goes straight back. */
void signals_catch_fatal(void)
{
	static const int sigs[] = { SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTERM, SIGINT,
	                            SIGHUP, SIGQUIT };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		int sig = sigs[i];
		struct sigaction sa = { .sa_sigaction = on_fatal, .sa_flags = SA_NODEFER | SA_SIGINFO }, old;
		fatal[sig] = 1;
		arrived = 0;
		probing = sig;
		if (real_sigaction(sig, &sa, &old) < 0) {
			probing = 0;
			continue;
		}
		if (old.sa_handler == SIG_DFL) {
			app_set(sig, &old);
			owned[sig] = 1;
		} else {
			real_sigaction(sig, &old, NULL);
		}
		probing = 0;
		if (arrived) {              /* now as the program's action says */
			arrived = 0;
			if (old.sa_handler != SIG_IGN)
				raw3(SYS_tgkill, raw0(SYS_getpid), raw0(SYS_gettid), sig);
		}
	}
}

__attribute__((visibility("default")))
int sigaction(int sig, const struct sigaction *sa, struct sigaction *old)
{
	if (sig > 0 && sig < _NSIG && !owned[sig] && fatal[sig] && sa && sa->sa_handler == SIG_DFL &&
	    !(sa->sa_flags & SA_SIGINFO) && shim.enabled) {
		/* back to the default: ours again, so the death is told (END) */
		if (signals_own(sig, on_fatal, SA_NODEFER) == 0) {
			if (old)
				app_get(sig, old);
			app_set(sig, sa);
			return 0;
		}
	}
	if (sig <= 0 || sig >= _NSIG || !owned[sig])
		return real_sigaction(sig, sa, old);
	if (old)
		app_get(sig, old);
	if (!sa)
		return 0;
	if (sig == SIGSYS || sa->sa_handler == SIG_DFL) {
		app_set(sig, sa);                   /* ours stays installed */
		return 0;
	}
	owned[sig] = 0;                             /* the program's own */
	return real_sigaction(sig, sa, NULL);
}

__attribute__((visibility("default")))
__sighandler_t signal(int sig, __sighandler_t handler)
{
	struct sigaction sa = { .sa_handler = handler, .sa_flags = SA_RESTART }, old;
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}
