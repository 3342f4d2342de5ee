/* finish_no_malloc: preloaded alone, the last process to leave finishes
 * the trace, decoding what a dead process left in its slab.  That must
 * not call the program's malloc: this program defines malloc, calloc,
 * realloc and free (the recorder's references bind to them, as they would
 * to any allocator a program brings) and says on stderr when one is called
 * after its last atexit handler ran.  Its child execs this program again,
 * maps a page and dies by SIGKILL, leaving its image's MAP unfinished. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

extern void *__libc_malloc(size_t), *__libc_realloc(void *, size_t);
extern void *__libc_calloc(size_t, size_t);
extern void __libc_free(void *);

static volatile int exiting;

static void after(const char *f)
{
	if (exiting) {
		write(2, f, strlen(f));
		write(2, " after exit\n", 12);
	}
}

void *malloc(size_t n) { after("malloc"); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { after("calloc"); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { after("realloc"); return __libc_realloc(p, n); }
void free(void *p) { after("free"); __libc_free(p); }

static void last(void) { exiting = 1; }

int main(int argc, char **argv)
{
	if (argc > 1) {
		mmap(0, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		raise(SIGKILL);
	}
	atexit(last);
	pid_t p = fork();
	if (p == 0) {
		execl("/proc/self/exe", argv[0], "child", (char *)0);
		_exit(127);
	}
	int st;
	waitpid(p, &st, 0);
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL ? 0 : 1;
}
