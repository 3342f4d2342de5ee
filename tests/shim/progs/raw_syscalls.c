/* VMA calls through syscall(2), which glibc does not route via its
 * wrappers, and through a `syscall` instruction of the program's own. */
#include "marker.h"
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	MAIN_STARTS();
	long p = syscall(SYS_mmap, 0, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	syscall(SYS_mprotect, p + 4096, 4096, PROT_READ);
	syscall(SYS_madvise, p, 4096, MADV_DONTNEED);
	syscall(SYS_munmap, p, 3 * 4096);
	long bad = syscall(SYS_munmap, p + 1, 4096);   /* EINVAL */
	syscall(SYS_brk, 0);
	long inl;
	__asm__ volatile("syscall" : "=a"(inl) : "0"((long)SYS_munmap), "D"(p), "S"(4096L)
	                 : "rcx", "r11", "memory");
	puts(bad == -1 && inl == 0 ? "PASS" : "FAIL");
	return 0;
}
