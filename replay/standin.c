#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "replay/standin.h"

/* The handler only has this to work with: the directory name and the files
 * in it, all named by index, so removal needs no allocation. */
static struct standins *guarded;
static pid_t owner_pid;

static void remove_files(const struct standins *s)
{
	char p[320];
	for (size_t i = 0; i < s->n; i++) {
		snprintf(p, sizeof(p), "%s/f%zu", s->dir, i);
		unlink(p);
	}
	rmdir(s->dir);
}

void standins_remove(struct standins *s)
{
	if (getpid() != owner_pid)
		return;
	for (size_t i = 0; s->fd && i < s->n; i++)
		if (s->fd[i] >= 0)
			close(s->fd[i]);
	free(s->fd);
	s->fd = NULL;
	if (s->dir[0])
		remove_files(s);
	s->dir[0] = 0;
}

static void on_signal(int sig)
{
	if (guarded && guarded->dir[0] && getpid() == owner_pid)
		remove_files(guarded);
	signal(sig, SIG_DFL);
	raise(sig);
}

void standins_guard(struct standins *s)
{
	guarded = s;
	owner_pid = getpid();
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

void standins_forget_in_child(void)
{
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		signal(sigs[i], SIG_DFL);
}

/* The first mapped record of the same (dev, ino), or -1: its stand-in
 * (or real file, or the failure to open it, said once) serves both. */
static int same_identity(const struct rp_trace *t, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (t->file_need[j] && t->files[j].dev == t->files[i].dev && t->files[j].ino == t->files[i].ino &&
		    (t->files[i].ino || strcmp(t->files[j].path, t->files[i].path) == 0))
			return (int)j;
	return -1;
}

int standins_create(struct standins *s, const struct rp_trace *t, int real_files,
                    char *why, size_t whylen)
{
	memset(s, 0, sizeof(*s));
	owner_pid = getpid();
	s->real_files = real_files;
	s->n = t->nfiles;
	s->fd = malloc((t->nfiles + 1) * sizeof(*s->fd));
	if (!s->fd) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < s->n; i++)
		s->fd[i] = -1;
	if (!t->nfiles)
		return 0;
	if (!real_files) {
		const char *tmp = getenv("TMPDIR");
		snprintf(s->dir, sizeof(s->dir), "%s/vmreplay.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(s->dir)) {
			snprintf(why, whylen, "%s: cannot create the stand-in directory: %s",
			         s->dir, strerror(errno));
			s->dir[0] = 0;
			return -1;
		}
	}
	for (size_t i = 0; i < s->n; i++) {
		if (!t->file_need[i])
			continue;   /* never mapped (an execve's file, a failed lookup) */
		int same = same_identity(t, i);
		if (same >= 0) {
			s->fd[i] = s->fd[same] >= 0 ? dup(s->fd[same]) : -1;
			/* one file for every record of the identity: big enough for all */
			uint64_t size = (t->file_need[i] + 4095) & ~4095ull;
			struct stat st;
			if (!real_files && s->fd[i] >= 0 && fstat(s->fd[i], &st) == 0 &&
			    (uint64_t)st.st_size < size && ftruncate(s->fd[i], (off_t)size) < 0) {
				snprintf(why, whylen, "%s/f%d: cannot grow a stand-in file: %s", s->dir, same,
				         strerror(errno));
				return -1;
			}
			continue;
		}
		if (real_files) {
			s->fd[i] = open(t->files[i].path, O_RDONLY | O_CLOEXEC);
			if (s->fd[i] < 0)
				fprintf(stderr, "vmreplay: %s: %s (its mappings will be anonymous)\n",
				        t->files[i].path, strerror(errno));
			continue;
		}
		char p[320];
		snprintf(p, sizeof(p), "%s/f%zu", s->dir, i);
		s->fd[i] = open(p, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		uint64_t size = t->file_need[i];
		if (s->fd[i] < 0 || ftruncate(s->fd[i], (off_t)((size + 4095) & ~4095ull)) < 0) {
			snprintf(why, whylen, "%s: cannot create a stand-in file: %s", p, strerror(errno));
			return -1;
		}
	}
	return 0;
}
