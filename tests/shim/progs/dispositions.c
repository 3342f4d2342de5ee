/* Each fatal signal's disposition as the program sees it (sigaction),
 * the kernel's ignored set (SigIgn), then signals the program handles
 * or ignores itself, raised: "handled TERM", "ignored INT", "done".
 * The same output natively and recorded. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t got;
static void on_term(int sig) { got = sig; }

static const char *kind(void (*h)(int))
{
	return h == SIG_DFL ? "default" : h == SIG_IGN ? "ignored" : "handler";
}

int main(void)
{
	static const int sigs[] = { SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTERM, SIGINT,
	                            SIGHUP, SIGQUIT, SIGSYS };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction sa;
		sigaction(sigs[i], NULL, &sa);
		printf("%s %s flags %#x\n", strsignal(sigs[i]), kind(sa.sa_handler),
		       (unsigned)sa.sa_flags & ~0x04000000u /* SA_RESTORER */);
	}
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "SigIgn:", 7) == 0)
			fputs(line, stdout);
	if (f)
		fclose(f);
	signal(SIGTERM, on_term);
	raise(SIGTERM);
	printf("handled %d\n", got == SIGTERM);
	signal(SIGINT, SIG_IGN);
	raise(SIGINT);
	printf("ignored INT\n");
	signal(SIGTERM, SIG_DFL);
	struct sigaction back;
	sigaction(SIGTERM, NULL, &back);
	printf("TERM back to %s\ndone\n", kind(back.sa_handler));
	return 0;
}
