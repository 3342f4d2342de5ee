/* Deaths the recorder cannot see coming, after five mmaps (1..5 pages,
 * PROT_READ):
 *   fatal_after kill       SIGKILL itself
 *   fatal_after killchild  a child maps 7 pages and is SIGKILLed by us; then exit 0
 *   fatal_after dfl        SIGSEGV handler installed, SIG_DFL restored, fault
 *   fatal_after resethand  SA_RESETHAND SIGTERM handler, raise(SIGTERM) twice
 *   fatal_after abort      signal(SIGABRT, h); signal(SIGABRT, SIG_DFL); abort()
 *   fatal_after blocked    every signal blocked, then a fault */
#include "marker.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void handler(int sig) { (void)sig; }

static volatile unsigned long nowhere = 8;

static void fault(void)
{
	*(volatile int *)nowhere = 1;
}

int main(int argc, char **argv)
{
	MAIN_STARTS();
	if (argc != 2)
		return 2;
	const char *m = argv[1];
	for (int i = 0; i < 5; i++)
		mmap(NULL, 4096 * (i + 1), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (strcmp(m, "kill") == 0) {
		raise(SIGKILL);
	} else if (strcmp(m, "killchild") == 0) {
		int p[2];
		char c;
		if (pipe(p) != 0)
			return 3;
		pid_t pid = fork();
		if (pid == 0) {
			mmap(NULL, 4096 * 7, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (write(p[1], "x", 1) != 1)
				_exit(4);
			for (;;)
				pause();
		}
		if (read(p[0], &c, 1) != 1)
			return 5;
		kill(pid, SIGKILL);
		int st;
		waitpid(pid, &st, 0);
		printf("child %s\n", WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL ? "killed" : "??");
		return 0;
	} else if (strcmp(m, "dfl") == 0) {
		struct sigaction sa = { .sa_handler = handler }, dfl = { .sa_handler = SIG_DFL };
		sigaction(SIGSEGV, &sa, NULL);
		sigaction(SIGSEGV, &dfl, NULL);
		fault();
	} else if (strcmp(m, "resethand") == 0) {
		struct sigaction sa = { .sa_handler = handler, .sa_flags = SA_RESETHAND };
		sigaction(SIGTERM, &sa, NULL);
		raise(SIGTERM);
		raise(SIGTERM);
	} else if (strcmp(m, "abort") == 0) {
		signal(SIGABRT, handler);
		signal(SIGABRT, SIG_DFL);
		abort();
	} else if (strcmp(m, "blocked") == 0) {
		sigset_t all;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		fault();
	}
	return 6;
}
