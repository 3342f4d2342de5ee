/* vmtrace_top_sim.c - run `vmreplay -q --target sim --kernel host
 * --per-event --json TMP TRACE` (the vmreplay beside this vmtrace, so the
 * one replay path decides outcomes) and read its per_event outcomes. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "analysis/vmtrace_top_sim.h"
#include "lib/errmsg.h"

extern char **environ;

/* <directory of this executable>/vmreplay */
static int replayer_path(char *path, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	if (!(slash = strrchr(exe, '/')))
		return -1;
	*slash = '\0';
	return snprintf(path, len, "%s/vmreplay", exe) < (int)len ? 0 : -1;
}

/* The first line of FILE, or "" */
static void first_line(const char *file, char *buf, size_t len)
{
	FILE *f = fopen(file, "re");

	buf[0] = '\0';
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
}

int top_sim_outcomes(const char *trace, const char *outcome, struct outcome_set *set,
                     char *err, size_t errlen)
{
	char replay[PATH_MAX + 16], json[PATH_MAX], log[PATH_MAX], msg[256];
	const char *tmp = getenv("TMPDIR");
	posix_spawn_file_actions_t fa;
	int jfd, lfd, st = -1, rc = -1;
	pid_t pid;

	memset(set, 0, sizeof(*set));
	if (replayer_path(replay, sizeof(replay)) < 0 || access(replay, X_OK))
		return errmsg(err, errlen, "no vmreplay beside vmtrace (%s)", replay);
	if (!tmp || !*tmp)
		tmp = "/tmp";
	snprintf(json, sizeof(json), "%s/vmtrace-top.XXXXXX", tmp);
	snprintf(log, sizeof(log), "%s/vmtrace-top.XXXXXX", tmp);
	if ((jfd = mkstemp(json)) < 0)
		return errmsg(err, errlen, "%s: %s", json, strerror(errno));
	close(jfd);
	if ((lfd = mkstemp(log)) < 0) {
		snprintf(err, errlen, "%s: %s", log, strerror(errno));
		unlink(json);
		return -1;
	}
	char *argv[] = { replay, "-q", "--target", "sim", "--kernel", "host", "--per-event",
	                 "--json", json, (char *)trace, NULL };
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, lfd, 2);
	if ((errno = posix_spawn(&pid, replay, &fa, NULL, argv, environ)))
		snprintf(err, errlen, "%s: %s", replay, strerror(errno));
	else {
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		/* 1: a truncated trace, its complete part replayed */
		if (WIFEXITED(st) && WEXITSTATUS(st) <= 1)
			rc = outcome_set_load(set, json, outcome, err, errlen);
		else {
			first_line(log, msg, sizeof(msg));
			snprintf(err, errlen, "the simulator could not replay it (%s)",
			         msg[0] ? msg : "vmreplay failed");
		}
	}
	posix_spawn_file_actions_destroy(&fa);
	close(lfd);
	unlink(log);
	unlink(json);
	return rc;
}
