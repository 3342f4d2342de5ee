#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "replay/standin.h"

/* A stand-in file holds every page the recorded mappings of it reach,
 * counted in 4 KiB pages (x86-64's). */
#define STANDIN_PAGE 4096u
static uint64_t standin_size(uint64_t need)
{
	return (need + STANDIN_PAGE - 1) & ~(uint64_t)(STANDIN_PAGE - 1);
}

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

static int lazy_fd = -1;   /* the identity opened on demand last */

void standins_remove(struct standins *s)
{
	if (getpid() != owner_pid)
		return;
	for (size_t i = 0; s->fd && i < s->n; i++)
		if (s->fd[i] >= 0 && s->first[i] == i)
			close(s->fd[i]);
	if (lazy_fd >= 0)
		close(lazy_fd);
	lazy_fd = -1;
	free(s->fd);
	free(s->first);
	s->fd = NULL;
	s->first = NULL;
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

/* Descriptors the stand-ins may hold open at once: the limit raised to
 * its hard maximum, less room for the replayer's own (trace, maps, pipes). */
static size_t fd_budget(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 512;
	if (rl.rlim_cur < rl.rlim_max) {
		rlim_t want = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > (1u << 20) ? (1u << 20) : rl.rlim_max;
		if (want > rl.rlim_cur) {
			struct rlimit up = { want, rl.rlim_max };
			if (setrlimit(RLIMIT_NOFILE, &up) == 0)
				rl.rlim_cur = want;
		}
	}
	return rl.rlim_cur > 128 ? (size_t)(rl.rlim_cur - 64) : rl.rlim_cur / 2;
}

static int open_one(const struct standins *s, size_t i, int create)
{
	if (s->real_files) {
		/* a path from the trace: never block on a FIFO or a device, never
		 * follow a link, and map regular files only */
		int fd = open(s->t->files[i].path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY);
		struct stat st;
		const char *why = fd < 0 ? strerror(errno) : NULL;
		if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
			why = "not a regular file, refused";
			close(fd);
			fd = -1;
		}
		if (fd < 0 && create)
			fprintf(stderr, "vmreplay: %s: %s (its mappings will be anonymous)\n",
			        s->t->files[i].path, why);
		return fd;
	}
	char p[320];
	snprintf(p, sizeof(p), "%s/f%zu", s->dir, i);
	return open(p, create ? O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC : O_RDWR | O_CLOEXEC, 0600);
}

int standins_fd_lazy(const struct standins *s, size_t i)
{
	/* cold: only traces with more files than descriptors get here */
	if (lazy_fd >= 0)
		close(lazy_fd);
	lazy_fd = open_one(s, s->first[i], 0);
	return lazy_fd;
}

int standins_create(struct standins *s, const struct rp_trace *t, int real_files,
                    char *why, size_t whylen)
{
	memset(s, 0, sizeof(*s));
	owner_pid = getpid();
	s->real_files = real_files;
	s->t = t;
	s->n = t->nfiles;
	s->fd = malloc((t->nfiles + 1) * sizeof(*s->fd));
	s->first = malloc((t->nfiles + 1) * sizeof(*s->first));
	if (!s->fd || !s->first) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < s->n; i++) {
		s->fd[i] = -1;
		s->first[i] = (uint32_t)i;
	}
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
	size_t budget = fd_budget(), open_now = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (!t->file_need[i])
			continue;   /* never mapped (an execve's file, a failed lookup) */
		int same = same_identity(t, i);
		if (same >= 0) {
			/* one file and one descriptor for every record of the
			 * identity: big enough for all */
			s->first[i] = s->first[same];
			s->fd[i] = s->fd[same];
			uint64_t size = standin_size(t->file_need[i]);
			struct stat st;
			char p[320];
			snprintf(p, sizeof(p), "%s/f%u", s->dir, s->first[i]);
			if (!real_files && s->fd[i] != -1 &&
			    (s->fd[i] >= 0 ? fstat(s->fd[i], &st) : stat(p, &st)) == 0 &&
			    (uint64_t)st.st_size < size &&
			    (s->fd[i] >= 0 ? ftruncate(s->fd[i], (off_t)size) : truncate(p, (off_t)size)) < 0) {
				snprintf(why, whylen, "%s: cannot grow a stand-in file: %s", p, strerror(errno));
				return -1;
			}
			continue;
		}
		int fd = open_one(s, i, 1);
		if (fd < 0 && real_files)
			continue;
		uint64_t size = t->file_need[i];
		if (fd < 0 || (!real_files && ftruncate(fd, (off_t)standin_size(size)) < 0)) {
			snprintf(why, whylen, "%s/f%zu: cannot create a stand-in file: %s", s->dir, i, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		if (++open_now > budget) {
			close(fd);   /* the file stays; opened again when mapped */
			fd = STANDIN_LAZY;
		}
		s->fd[i] = fd;
	}
	return 0;
}
