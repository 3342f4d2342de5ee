/* --threads: what the dependency lists hold against a trace's length
 * (replay/deps.h).  This test builds deps.c and spill.c with
 * RP_SPILL_ANON_MAX 0, so every array moves into a file as a trace of
 * millions of steps makes them do: the lists of two threads' brk pairs,
 * long enough for the sweep to drop its windows several times, are those
 * built in memory (VMREPLAY_NO_SPILL), and stay so after rp_deps_drop; the
 * files are unlinked and no descriptor stays open, even when the lists
 * are freed twice.  And with DEPS_MAX_PIECES 1000, threads that map ever
 * new ranges get a process-wide step every 1001 ranges, so the sweep's
 * map of last touchers stays bounded. */
#define RP_SPILL_ANON_MAX 0
#define DEPS_MAX_PIECES 1000
#include "replay/spill.c"
#include "replay/deps.c"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include "tests/tap.h"

enum { NSTEPS = 3 * RP_SPILL_WINDOW + 1000 };

static struct rp_step steps[NSTEPS];
static struct vmt_event evs[NSTEPS];
static struct rp_proc_info procs[1];
static struct rp_trace t;

/* a process, then brk up a page and back down, by tids 100 and 101 in turn */
static void make_trace(void)
{
	t.steps = steps;
	t.events = evs;
	t.procs = procs;
	procs[0] = (struct rp_proc_info){ .pid = 100, .parent_slot = -1 };
	t.nprocs = 1;
	steps[t.nsteps++] = (struct rp_step){ .kind = RP_PROCESS };
	uint64_t base = 0x1000000;
	evs[0] = (struct vmt_event){ .pid = 100, .tid = 100, .sys = (uint16_t)vmt_sys_from_name("brk"),
	                             .result = (int64_t)base };
	steps[t.nsteps++] = (struct rp_step){ .kind = RP_EVENT, .idx = 0 };
	t.nevents = 1;
	while (t.nsteps < NSTEPS) {
		uint64_t to = t.nevents % 2 ? base + 4096 : base;
		evs[t.nevents] = (struct vmt_event){ .pid = 100, .tid = 100 + (int32_t)(t.nevents / 2 % 2),
		                                     .sys = (uint16_t)vmt_sys_from_name("brk"),
		                                     .args = { to }, .result = (int64_t)to };
		steps[t.nsteps++] = (struct rp_step){ .kind = RP_EVENT, .idx = (uint32_t)t.nevents++ };
	}
}

/* a process, then 3000 mmaps of a page, 3 pages apart (neither overlapping
 * nor touching), by tids 100 and 101 in turn */
static void make_mmap_trace(void)
{
	memset(&t, 0, sizeof(t));
	t.steps = steps;
	t.events = evs;
	t.procs = procs;
	t.nprocs = 1;
	steps[t.nsteps++] = (struct rp_step){ .kind = RP_PROCESS };
	for (int i = 0; i < 3000; i++) {
		uint64_t at = 0x10000000 + (uint64_t)i * 3 * 4096;
		evs[t.nevents] = (struct vmt_event){ .pid = 100, .tid = 100 + i % 2, .sys = (uint16_t)vmt_sys_from_name("mmap"),
		                                     .args = { 0, 4096, 3, 0x22 }, .result = (int64_t)at };
		steps[t.nsteps++] = (struct rp_step){ .kind = RP_EVENT, .idx = (uint32_t)t.nevents++ };
	}
}

/* "S<D,D" for every step S that waits for steps D */
static const char *show(const struct rp_deps *d)
{
	static char buf[512];
	size_t n = 0;
	buf[0] = 0;
	for (size_t s = 0; s < t.nsteps && n < sizeof(buf) - 32; s++) {
		if (d->off[s] == d->off[s + 1])
			continue;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%zu<", n ? " " : "", s);
		for (uint32_t i = d->off[s]; i < d->off[s + 1]; i++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%u", i > d->off[s] ? "," : "", d->dep[i]);
	}
	return buf;
}

static int open_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static int entries(const char *dir)
{
	int n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* 1 when b's lists are a's */
static int same(const struct rp_deps *a, const struct rp_deps *b)
{
	size_t per_step = (t.nsteps + 1) * sizeof(uint32_t);
	return a->nlanes == b->nlanes && a->ndeps == b->ndeps && !memcmp(a->lane, b->lane, per_step - 4) &&
	       !memcmp(a->off, b->off, per_step) && !memcmp(a->next, b->next, per_step - 4) &&
	       !memcmp(a->dep, b->dep, a->ndeps * sizeof(uint32_t));
}

int main(void)
{
	make_trace();
	char dir[] = "/tmp/vmrec-deps-spill.XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	setenv("TMPDIR", dir, 1);

	struct rp_deps mem, file;
	setenv("VMREPLAY_NO_SPILL", "1", 1);
	ok(rp_deps_build(&mem, &t, 0, 4096) == 0, "the lists built in memory");
	ok(mem.lane_sp.anon && mem.dep_sp.anon, "... anonymous memory (VMREPLAY_NO_SPILL)");
	unsetenv("VMREPLAY_NO_SPILL");
	int fds = open_fds();
	ok(rp_deps_build(&file, &t, 0, 4096) == 0, "the lists built in files");
	ok(!file.lane_sp.anon && !file.off_sp.anon && !file.next_sp.anon && !file.dep_sp.anon,
	   "... every one of the four arrays a file");
	/* after the process and the query, pairs by each tid in turn: the
	 * first of each pair waits for the other thread's last brk */
	is_int(file.ndeps, (t.nsteps - 2) / 2, "a dependency a pair of brks");
	ok(same(&mem, &file), "the same lists in files as in memory");
	rp_deps_drop(&file);
	ok(same(&mem, &file), "the same after they left this process's memory");
	is_int(open_fds(), fds, "no descriptor left open (the files are sealed)");
	is_int(entries(dir), 0, "the files are unlinked");

	/* threads_init frees the lists again after a failed build */
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0 && null != 0) {
		dup2(null, 0);
		close(null);
	}
	rp_deps_free(&file);
	rp_deps_free(&file);
	rp_deps_free(&mem);
	ok(fcntl(0, F_GETFD) >= 0, "freed twice: descriptor 0 is not closed");

	make_mmap_trace();
	struct rp_deps d;
	ok(rp_deps_build(&d, &t, 0, 4096) == 0, "3000 disjoint mmaps by two threads");
	is_str(show(&d), "2<0 1002<1001 1003<1002 2004<2003 2005<2004",
	       "past 1000 ranges touched a step is process-wide: it waits for the other thread, the next for it");
	rp_deps_free(&d);
	rmdir(dir);
	return done_testing();
}
