#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "replay/standin.h"

/* A stand-in file holds every page the recorded mappings of it reach,
 * counted in 4 KiB pages (x86-64's). */
#define STANDIN_PAGE VMT_PAGE
#define MFD_CLOEXEC_ 1u
#define MFD_HUGETLB_ 4u
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
static size_t lazy_of;     /* which (its first record) */

void standins_close_lazy(void)
{
	if (lazy_fd >= 0)
		close(lazy_fd);
	lazy_fd = -1;
}

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
	free(s->real);
	s->fd = NULL;
	s->first = NULL;
	s->real = NULL;
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

/* A recorded path, read-only, following no symlink in any component:
 * each directory is opened from the one before with O_NOFOLLOW, so a
 * directory swapped for a link (/x/d -> /etc) stops the walk, and
 * never blocking on a FIFO or a device.  The descriptor, or -1 with
 * why. */
static int open_nofollow(const char *path, char *why, size_t whylen)
{
	char buf[PATH_MAX], *save = NULL;
	if (strlen(path) >= sizeof(buf) || !*path) {
		snprintf(why, whylen, "%s", *path ? strerror(ENAMETOOLONG) : "an empty path");
		return -1;
	}
	strcpy(buf, path);
	int dfd = open(path[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	char *comp = strtok_r(buf, "/", &save);
	if (!comp) {
		snprintf(why, whylen, "not a regular file, refused");
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	while (dfd >= 0 && comp) {
		char *next = strtok_r(NULL, "/", &save);
		int fd = next ? openat(dfd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
		              : openat(dfd, comp, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY);
		int e = errno;
		struct stat st;
		if (fd < 0 && fstatat(dfd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
			snprintf(why, whylen, "%.*s is a symbolic link, refused",
			         (int)(comp + strlen(comp) - buf), path);
			close(dfd);
			return -1;
		}
		close(dfd);
		if (fd < 0) {
			snprintf(why, whylen, "%s", strerror(e));
			return -1;
		}
		if (!next)
			return fd;
		dfd = fd;
		comp = next;
	}
	snprintf(why, whylen, "%s", strerror(errno));
	return -1;
}

/* A memfd's path as /proc/PID/maps shows it: "/memfd:NAME (deleted)". */
static int is_memfd(const struct vmt_file *f)
{
	return f->path && strncmp(f->path, "/memfd:", 7) == 0;
}

/* A file on hugetlbfs (FILE's fs_type) gets a memfd of huge pages, made
 * when first mapped (standins_fd's one at a time, as lazily opened
 * files): a hugetlbfs file holds its huge pages and reservations while
 * open, and a machine has few. */
static int is_hugetlb(const struct vmt_file *f)
{
	return f->fs_type == VMT_FS_HUGETLBFS;
}

/* A memfd's stand-in is a memfd (shmem), as the recorded file was: what
 * the kernel allows on a mapping of it (userfaultfd registration, a
 * shmem's placement) is shmem's, which a file in the stand-in directory's
 * file system is not.  It has no path to open again: never lazy. */
static int memfd_standin(const struct vmt_file *f, uint64_t need)
{
	int huge = is_hugetlb(f);
	int fd = (int)syscall(SYS_memfd_create, "vmreplay-standin", MFD_CLOEXEC_ | (huge ? MFD_HUGETLB_ : 0));
	struct statfs sf;   /* hugetlbfs: whole huge pages, its block size */
	uint64_t unit = huge && fd >= 0 && fstatfs(fd, &sf) == 0 ? (uint64_t)sf.f_bsize : STANDIN_PAGE;
	if (fd >= 0 && ftruncate(fd, (off_t)((need + unit - 1) / unit * unit)) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static int open_standin(const struct standins *s, size_t i, int create)
{
	char p[320];
	snprintf(p, sizeof(p), "%s/f%zu", s->dir, i);
	return open(p, create ? O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC : O_RDWR | O_CLOEXEC, 0600);
}

static int open_one(const struct standins *s, size_t i, int create)
{
	char why[PATH_MAX + 64];
	if (s->real && s->real[i])
		return open_nofollow(s->t->files[i].path, why, sizeof(why));
	return open_standin(s, i, create);
}

/* --real-files: the real file of identity i if it can be mapped as
 * recorded (its descriptor, and real[i] set), else -1 after one line
 * saying why a stand-in takes its place. */
static int open_real(struct standins *s, size_t i, uint8_t use)
{
	const struct vmt_file *f = &s->t->files[i];
	char why[PATH_MAX + 128];
	struct stat st;
	int fd = -1;
	if (use & RP_FILE_SHARED_WRITE) {
		snprintf(why, sizeof(why), "mapped shared and writable, and --real-files never opens a "
		         "file for writing");
	} else if ((fd = open_nofollow(f->path, why, sizeof(why))) < 0) {
		/* why says it */
	} else if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, sizeof(why), "not a regular file, refused");
	} else if ((uint64_t)st.st_size < f->size) {
		snprintf(why, sizeof(why), "%llu bytes now, %llu when recorded: pages it had are gone",
		         (unsigned long long)st.st_size, (unsigned long long)f->size);
	} else {
		if ((uint64_t)st.st_size != f->size)
			fprintf(stderr, "vmreplay: %s: %llu bytes now, %llu when recorded (mapped as it is now)\n",
			        f->path, (unsigned long long)st.st_size, (unsigned long long)f->size);
		s->real[i] = 1;
		return fd;
	}
	if (fd >= 0)
		close(fd);
	fprintf(stderr, "vmreplay: %s: %s (a stand-in is mapped instead)\n", f->path, why);
	return -1;
}

/* Whether the maps file lists a VMA of (dev, ino). */
static int maps_have(const char *maps, dev_t dev, ino_t ino)
{
	char line[512];
	unsigned maj, min;
	unsigned long i;
	int found = 0;
	FILE *m = fopen(maps, "re");
	while (m && !found && fgets(line, sizeof line, m))
		found = sscanf(line, "%*s %*s %*s %x:%x %lu", &maj, &min, &i) == 3 && i == ino &&
		        makedev(maj, min) == dev;
	if (m)
		fclose(m);
	return found;
}

/* Whether a VMA of this process maps the file open at fd.  A hugetlbfs
 * file none maps any more is made anew when mapped again: the recorded
 * program most often closed it (a new memfd often gets its inode number,
 * which the trace cannot tell apart), and an open one would keep the
 * reservations of its shared mappings, which the recording's new file
 * did not have. */
static int mapped_here(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 && maps_have("/proc/self/maps", st.st_dev, st.st_ino);
}

int standins_fd_lazy(const struct standins *s, size_t i)
{
	/* cold: only traces with more files than descriptors, and hugetlbfs
	 * files, get here */
	size_t f = s->first[i];
	if (lazy_fd >= 0 && lazy_of == f && mapped_here(lazy_fd))
		return lazy_fd;   /* a hugetlbfs stand-in stays this file while mapped */
	/* a hugetlbfs stand-in a fork child's replayer mapped too is freed
	 * when that replayer ends, before the parent's next step (engine.c) */
	if (lazy_fd >= 0)
		close(lazy_fd);
	lazy_of = f;
	uint64_t need = 0;
	if (is_hugetlb(&s->t->files[f]))
		for (size_t j = f; j < s->n; j++)
			if (s->first[j] == f && s->t->file_need[j] > need)
				need = s->t->file_need[j];
	lazy_fd = need ? memfd_standin(&s->t->files[f], need) : open_one(s, f, 0);
	return lazy_fd;
}

int standins_create(struct standins *s, const struct rp_trace *t, int real_files,
                    char *why, size_t whylen)
{
	memset(s, 0, sizeof(*s));
	owner_pid = getpid();
	s->t = t;
	s->n = t->nfiles;
	s->fd = malloc((t->nfiles + 1) * sizeof(*s->fd));
	s->first = malloc((t->nfiles + 1) * sizeof(*s->first));
	uint64_t *need = calloc(t->nfiles + 1, sizeof(*need));
	uint8_t *use = calloc(t->nfiles + 1, sizeof(*use));
	if (real_files)
		s->real = calloc(t->nfiles + 1, sizeof(*s->real));
	if (!s->fd || !s->first || !need || !use || (real_files && !s->real)) {
		free(need);
		free(use);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	/* one file and one descriptor for every record of an identity: big
	 * enough for all, and used as the most demanding of them uses it */
	for (size_t i = 0; i < s->n; i++) {
		s->fd[i] = -1;
		s->first[i] = (uint32_t)i;
		if (!t->file_need[i])
			continue;   /* never mapped (an execve's file, a failed lookup) */
		int same = same_identity(t, i);
		size_t f = same >= 0 ? s->first[same] : i;
		s->first[i] = (uint32_t)f;
		if (t->file_need[i] > need[f])
			need[f] = t->file_need[i];
		use[f] |= t->file_use[i];
	}
	size_t budget = fd_budget(), open_now = 0;
	int ret = 0;
	for (size_t i = 0; i < s->n && !ret; i++) {
		if (!t->file_need[i] || s->first[i] != i)
			continue;
		/* the recorder's own store and files nothing maps need no file */
		if (real_files && !(use[i] & RP_FILE_MAPPED))
			continue;
		int fd = real_files ? open_real(s, i, use[i]) : -1;
		if (fd < 0 && is_hugetlb(&t->files[i])) {
			s->fd[i] = STANDIN_LAZY;
			continue;
		}
		/* a memfd stays open: past the descriptor budget a file does */
		int memfd = fd < 0 && is_memfd(&t->files[i]) && open_now < budget;
		if (memfd && (fd = memfd_standin(&t->files[i], need[i])) < 0) {
			snprintf(why, whylen, "%s: cannot create a memfd stand-in: %s", t->files[i].path,
			         strerror(errno));
			ret = -1;
			break;
		}
		if (fd < 0) {
			if (!s->dir[0]) {
				const char *tmp = getenv("TMPDIR");
				snprintf(s->dir, sizeof(s->dir), "%s/vmreplay.XXXXXX", tmp && *tmp ? tmp : "/tmp");
				if (!mkdtemp(s->dir)) {
					snprintf(why, whylen, "%s: cannot create the stand-in directory: %s",
					         s->dir, strerror(errno));
					s->dir[0] = 0;
					ret = -1;
					break;
				}
			}
			fd = open_standin(s, i, 1);
			if (fd < 0 || ftruncate(fd, (off_t)standin_size(need[i])) < 0) {
				snprintf(why, whylen, "%s/f%zu: cannot create a stand-in file: %s", s->dir, i,
				         strerror(errno));
				if (fd >= 0)
					close(fd);
				ret = -1;
				break;
			}
		}
		if (++open_now > budget) {
			close(fd);   /* the file stays; opened again when mapped */
			fd = STANDIN_LAZY;
		}
		s->fd[i] = fd;
	}
	for (size_t i = 0; i < s->n; i++)
		s->fd[i] = s->fd[s->first[i]];
	free(need);
	free(use);
	return ret;
}
