/* memcalls - makes a fixed set of VMA system calls (successes, errors,
 * every flag family, a thread, a fork) so tests can compare `vmtrace dump`
 * of its strace log, imported, with the log itself. */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void *thread_main(void *arg)
{
	void *p = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(p, 8192);
	return arg;
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *a = mmap(NULL, 16 * page, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mprotect(a + page, page, PROT_NONE);
	mprotect(a + 2 * page, page, PROT_READ | PROT_WRITE | PROT_EXEC);
	madvise(a, 4 * page, MADV_DONTNEED);
	madvise(a, 4 * page, MADV_HUGEPAGE);
	madvise(a, 4 * page, 12345);                       /* EINVAL */
	mlock(a, page);
	munlock(a, page);
	syscall(SYS_mlock2, a, page, MLOCK_ONFAULT);
	mlockall(MCL_FUTURE | MCL_ONFAULT);                 /* locks nothing now (ASan shadow) */
	munlockall();
	pkey_mprotect(a, page, PROT_READ, -1);
	munmap(a, 16 * page);
	/* a reservation of our own, so MREMAP_FIXED replaces nothing else */
	char *r = mmap(NULL, 80 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *m = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *b = mremap(m, 4 * page, 8 * page, MREMAP_MAYMOVE);
	char *c = mremap(b, page, page, MREMAP_MAYMOVE | MREMAP_FIXED, r + 64 * page);
	mremap(c, page, 2 * page, 0);                      /* ENOMEM */
	munmap(b, 8 * page);
	munmap(r, 80 * page);
	int id = shmget(IPC_PRIVATE, page, IPC_CREAT | 0600);
	void *shm = shmat(id, NULL, SHM_RDONLY);
	shmdt(shm);
	shmctl(id, IPC_RMID, NULL);
	mmap((void *)0x10000, page, PROT_READ, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	munmap((void *)0x10000, page);
	mmap(NULL, (size_t)1 << 47, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); /* ENOMEM */
	mmap(NULL, page, PROT_READ, MAP_PRIVATE, -1, 0);    /* EBADF */
	void *s = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_GROWSDOWN, -1, 0);
	munmap(s, 4 * page);
	void *cur = sbrk(0);
	brk((char *)cur + 3 * page);
	brk(cur);

	pthread_t t;
	pthread_create(&t, NULL, thread_main, NULL);
	pthread_join(t, NULL);

	pid_t pid = vfork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);

	pid = fork();
	if (pid == 0) {
		munmap(mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), page);
		_exit(3);
	}
	waitpid(pid, NULL, 0);
	return 0;
}
