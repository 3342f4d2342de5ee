/* Replay the simulator's fuzz corpus (tests/sim/fuzz/corpus) through the
 * libFuzzer harness without libFuzzer: deterministic, part of make check.
 * Each input runs in a child with a time limit, so an input that makes the
 * simulator spin (a residency record with an unaligned start did, in
 * sim_touch) fails its own test line instead of hanging the suite. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/tap.h"
#include "tests/sim/fuzz/fuzz_sim.c"

static int run_one(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0)
		return -1;
	uint8_t *buf = malloc((size_t)st.st_size + 1);
	ssize_t got = buf ? read(fd, buf, (size_t)st.st_size) : -1;
	close(fd);
	if (got != st.st_size) {
		free(buf);
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		alarm(10);
		LLVMFuzzerTestOneInput(buf, (size_t)st.st_size);
		_exit(0);
	}
	free(buf);
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

int main(void)
{
	const char *src = getenv("VMREC_SRC") ? getenv("VMREC_SRC") : ".";
	char dir[4096], path[8192];
	struct dirent *d;
	DIR *dp;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/tests/sim/fuzz/corpus", src);
	dp = opendir(dir);
	ok(dp != NULL, "the corpus is at %s", dir);
	while (dp && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		int st = run_one(path);
		ok(st == 0, "%s: %s", d->d_name, st == 0 ? "results or clean failures" :
		   st > 0 && WIFSIGNALED(st) ? (WTERMSIG(st) == SIGALRM ? "did not finish in 10 s" : "crashed") :
		   "could not be read");
		n++;
	}
	if (dp)
		closedir(dp);
	ok(n >= 5, "%d corpus inputs replayed", n);
	return done_testing();
}
