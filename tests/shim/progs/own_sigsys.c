/* A program with its own SIGSYS handler: it still gets the SIGSYS it
 * raises, and the recorder's traps never reach it.  The dispositions of
 * the signals the recorder catches read back as the program left them
 * (or as it inherited them: a shell's background job starts with SIGINT
 * and SIGQUIT ignored, which the kernel's SigIgn says). */
#include "marker.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* SIG_IGN where the kernel has SIG ignored, else SIG_DFL */
static void (*inherited(int sig))(int)
{
	char line[256];
	unsigned long long mask = 0;
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "SigIgn:", 7) == 0)
			sscanf(line + 7, "%llx", &mask);
	if (f)
		fclose(f);
	return mask >> (sig - 1) & 1 ? SIG_IGN : SIG_DFL;
}

static volatile sig_atomic_t got;

static void on_sys(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	got += sig == SIGSYS && si->si_code == SI_TKILL;
}

int main(void)
{
	MAIN_STARTS();
	struct sigaction sa = { .sa_sigaction = on_sys, .sa_flags = SA_SIGINFO }, old;
	sigaction(SIGSYS, &sa, NULL);
	raise(SIGSYS);
	long r;   /* a trapped call while the program's handler is installed */
	__asm__ volatile("syscall" : "=a"(r) : "0"(11L), "D"(0L), "S"(0L) : "rcx", "r11", "memory");
	raise(SIGSYS);
	sigaction(SIGSYS, NULL, &old);
	struct sigaction intr;
	sigaction(SIGINT, NULL, &intr);
	void (*term)(int) = inherited(SIGTERM);
	int ok = got == 2 && r == -22 && old.sa_sigaction == on_sys && intr.sa_handler == inherited(SIGINT) &&
	         signal(SIGTERM, SIG_IGN) == term && signal(SIGTERM, SIG_DFL) == SIG_IGN;
	puts(ok ? "PASS" : "FAIL");
	return 0;
}
