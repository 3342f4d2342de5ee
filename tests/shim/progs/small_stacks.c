/* small_stacks [BYTES]: three SIGUSR1 handlers, run on a sigaltstack of
 * BYTES (8192: the SIGSTKSZ programs were written against), each map,
 * touch, mprotect, madvise and unmap 1 MiB and say "mapped". */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SIZE (1u << 20)

static void on_usr1(int sig)
{
	(void)sig;
	char *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	memset(p, 1, SIZE);
	if (mprotect(p, 4096, PROT_READ) == 0 && madvise(p, SIZE, MADV_DONTNEED) == 0 && munmap(p, SIZE) == 0)
		(void)!write(1, "mapped\n", 7);
}

int main(int argc, char **argv)
{
	size_t size = argc > 1 ? strtoul(argv[1], NULL, 0) : 8192;
	stack_t ss = { .ss_sp = malloc(size), .ss_size = size };
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_ONSTACK };
	if (!ss.ss_sp || sigaltstack(&ss, NULL) != 0 || sigaction(SIGUSR1, &sa, NULL) != 0)
		return 1;
	for (int i = 0; i < 3; i++)
		raise(SIGUSR1);
	puts("PASS");
	return 0;
}
