/* SysV attachments and whole-process locking, for the replay tests: a
 * segment attached twice (read-write, read-only), detached, attached again
 * at a chosen address; mlockall(MCL_FUTURE) keeps a new neighbour apart,
 * munlockall lets it merge; a checkpoint after each step.  Prints "nosysv"
 * and exits 77 where SysV shared memory is unavailable. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>

#define PG 4096L

int main(void)
{
	void (*ck)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "vmrec_checkpoint");
	int id = shmget(IPC_PRIVATE, 3 * PG + 100, IPC_CREAT | 0600);
	if (id < 0) {
		printf("nosysv: %s\n", strerror(errno));
		return 77;
	}
	char *rw = shmat(id, NULL, 0);
	char *ro = shmat(id, NULL, SHM_RDONLY);
	if (ck)
		ck();
	int bad = shmdt(rw + PG);                        /* EINVAL: not an attachment */
	shmdt(rw);
	char *again = shmat(id, rw, 0);                  /* the same place */
	if (ck)
		ck();
	shmdt(ro);
	shmdt(again);
	shmctl(id, IPC_RMID, NULL);
	if (ck)
		ck();

	char *a = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(a + 2 * PG, 2 * PG);
	mlockall(MCL_FUTURE | MCL_ONFAULT);
	char *b = mmap(a + 2 * PG, 2 * PG, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (ck)
		ck();                                        /* b locked: apart from a */
	munlockall();
	if (ck)
		ck();                                        /* merged */
	mlockall(MCL_CURRENT | MCL_ONFAULT);
	munlockall();
	int ok = rw != (char *)-1 && ro != (char *)-1 && again == rw && bad == -1 && b == a + 2 * PG;
	puts(ok ? "PASS" : "FAIL");
	return 0;
}
