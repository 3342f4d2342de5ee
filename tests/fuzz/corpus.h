/* corpus.h - a harness's kept corpus replayed without libFuzzer, as a
 * TAP test in make check: each input in a child with a time limit, so
 * an input that crashes or spins fails its own line instead of the
 * suite.  Include the harness (which includes tests/fuzz/fuzz.h) first,
 * then call fuzz_corpus_main. */
#ifndef VMREC_FUZZ_CORPUS_H
#define VMREC_FUZZ_CORPUS_H

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "tests/tap.h"

static int fuzz_corpus_one(const char *path, unsigned seconds)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0)
		return -1;
	uint8_t *buf = malloc((size_t)st.st_size + 1);
	ssize_t got = buf ? read(fd, buf, (size_t)st.st_size) : -1;
	close(fd);
	if (got != st.st_size) {
		free(buf);
		return -1;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		alarm(seconds);
		LLVMFuzzerTestOneInput(buf, (size_t)st.st_size);
		_exit(0);
	}
	free(buf);
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

/* Every input of the source tree's directory REL; at least MIN of them. */
static int fuzz_corpus_main(const char *rel, int min)
{
	const char *src = getenv("VMREC_SRC") ? getenv("VMREC_SRC") : ".";
	char dir[4096], path[8192];
	snprintf(dir, sizeof(dir), "%s/%s", src, rel);
	DIR *dp = opendir(dir);
	struct dirent *d;
	int n = 0;
	fz_path("");   /* the harness's directory: this process's, removed at its exit */
	ok(dp != NULL, "the corpus is at %s", dir);   /* part of the source: missing fails */
	while (dp && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		int st = fuzz_corpus_one(path, 20);
		ok(st == 0, "%s: %s", d->d_name, st == 0 ? "read, or refused cleanly" :
		   st > 0 && WIFSIGNALED(st) ? (WTERMSIG(st) == SIGALRM ? "did not finish in 20 s" : "crashed") :
		   st > 0 ? "the harness found it wrong" : "could not be read");
		n++;
	}
	if (dp)
		closedir(dp);
	ok(n >= min, "%d corpus inputs (at least %d)", n, min);
	return done_testing();
}

#endif
