/* A statically linked program (the launcher records all of it) that
 * attaches a System V segment twice and detaches it: each shmat's event
 * names the segment by a FILE record, as libvmrec's do
 * (tests/shim/shm-file.t).  Prints "nosysv" and exits 77 where SysV
 * shared memory is unavailable. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/shm.h>

int main(void)
{
	int id = shmget(IPC_PRIVATE, 3 * 4096 + 100, IPC_CREAT | 0600);
	if (id < 0) {
		printf("nosysv: %s\n", strerror(errno));
		return 77;
	}
	char *a = shmat(id, NULL, 0), *b = shmat(id, NULL, SHM_RDONLY);
	int ok = a != (void *)-1 && b != (void *)-1;
	if (ok) {
		a[0] = 7;
		ok = b[0] == 7 && shmdt(a) == 0 && shmdt(b) == 0;
	}
	shmctl(id, IPC_RMID, NULL);
	puts(ok ? "PASS" : "FAIL");
	return !ok;
}
