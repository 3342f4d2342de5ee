/* --threads: the exact wait-for lists deps.c computes for small traces;
 * every step not listed waits for nothing, so it may run before earlier
 * steps of other threads. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "replay/deps.h"
#include "tests/tap.h"

static struct rp_step steps[64];
static struct vmt_event evs[64];
static struct rp_proc_info procs[4];
static struct rp_trace t;

static void reset(void)
{
	memset(&t, 0, sizeof(t));
	t.steps = steps;
	t.events = evs;
	t.procs = procs;
}

static void proc(int32_t pid, int32_t parent_slot)
{
	procs[t.nprocs++] = (struct rp_proc_info){ .pid = pid, .parent_slot = parent_slot, .first_step = (uint32_t)t.nsteps };
}

static void step(int kind, uint32_t slot)
{
	steps[t.nsteps++] = (struct rp_step){ .kind = (uint8_t)kind, .slot = slot };
}

static void ev(uint32_t slot, int32_t tid, const char *sys, uint64_t a0, uint64_t a1, uint64_t a3, int64_t result)
{
	evs[t.nevents] = (struct vmt_event){ .pid = procs[slot].pid, .tid = tid, .sys = (uint16_t)vmt_sys_from_name(sys),
	                                     .args = { a0, a1, 0, a3 }, .result = result };
	steps[t.nsteps++] = (struct rp_step){ .kind = RP_EVENT, .slot = slot, .idx = (uint32_t)t.nevents++ };
}

/* "S<D,D" for every step S that waits for steps D */
static const char *show(int kernel_placement)
{
	static char buf[512];
	struct rp_deps d;
	if (rp_deps_build(&d, &t, kernel_placement, 4096) < 0)
		return "(out of memory)";
	size_t n = 0;
	buf[0] = 0;
	for (size_t s = 0; s < t.nsteps; s++) {
		if (d.off[s] == d.off[s + 1])
			continue;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%zu<", n ? " " : "", s);
		for (uint32_t i = d.off[s]; i < d.off[s + 1]; i++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%u", i > d.off[s] ? "," : "", d.dep[i]);
	}
	rp_deps_free(&d);
	return buf;
}

#define ANON (MAP_PRIVATE | MAP_ANONYMOUS)

int main(void)
{
	/* two threads of one process */
	reset();
	proc(100, -1);
	step(RP_PROCESS, 0);                                               /* 0 */
	ev(0, 100, "mmap", 0, 0x3000, ANON, 0x20000000);                   /* 1 */
	ev(0, 101, "mmap", 0, 0x1000, ANON, 0x21000000);                   /* 2 after the image */
	ev(0, 100, "mprotect", 0x20001000, 0x1000, 0, 0);                  /* 3 own thread's range */
	ev(0, 101, "munmap", 0x21000000, 0x1000, 0, 0);                    /* 4 own thread's range */
	ev(0, 101, "mmap", 0, 0x1000, ANON, 0x20003000);                   /* 5 touches 1 */
	ev(0, 100, "mmap", 0, 0x1000, ANON, 0x22000000);                   /* 6 */
	ev(0, 100, "munmap", 0x20000000, 0x4000, 0, 0);                    /* 7 overlaps 1, 3, 5 */
	ev(0, 101, "clone", 0, 0, 0, 102);                                 /* 8 a thread: nothing */
	step(RP_CHECKPOINT, 0);                                            /* 9 everything before */
	ev(0, 101, "mmap", 0, 0x1000, ANON, 0x23000000);                   /* 10 */
	evs[7].flags = VMT_EV_THREAD;
	is_str(show(0), "2<0 5<1 7<5 9<8 10<9", "threads: disjoint ranges run freely, touching ones in order");
	is_str(show(1), "2<1 3<2 5<3 6<5 8<6 9<8 10<9", "kernel placement: every placed mmap waits for everything");

	/* brk, kernel-placed mmap, fork */
	reset();
	proc(100, -1);
	proc(200, 0);
	step(RP_PROCESS, 0);                                               /* 0 */
	ev(0, 100, "brk", 0, 0, 0, 0x1000000);                             /* 1 query */
	ev(0, 101, "brk", 0x1002000, 0, 0, 0x1002000);                     /* 2 after the other brk */
	ev(0, 100, "mmap", 0, 0x1000, ANON, 0x1002000);                    /* 3 touches the heap */
	ev(0, 101, "mmap", 0, 0x1000, ANON, 0x7f0000000000);               /* 4 */
	ev(0, 100, "fork", 0, 0, 0, 200);                                  /* 5 */
	procs[1].first_step = (uint32_t)t.nsteps;
	step(RP_PROCESS, 1);                                               /* 6 the child */
	ev(1, 200, "munmap", 0x1002000, 0x1000, 0, 0);                     /* 7 */
	ev(0, 101, "munmap", 0x1002000, 0x1000, 0, 0);                     /* 8 */
	ev(0, 101, "mmap", 0x30000000, 0x1000, ANON | MAP_FIXED, 0x30000000); /* 9 */
	is_str(show(0), "2<1 3<2 5<4 6<5 8<5", "recorded placement: brk order, heap neighbour, fork");
	is_str(show(1), "2<1 3<2 4<3 5<4 6<5 8<5", "kernel placement: a placed mmap waits for everything");

	/* a brk from an unknown break, a moving mremap, a failed placed mmap */
	reset();
	proc(100, -1);
	step(RP_PROCESS, 0);                                               /* 0 */
	ev(0, 100, "mmap", 0, 0x2000, ANON, 0x40000000);                   /* 1 */
	ev(0, 101, "brk", 0x1002000, 0, 0, 0x1002000);                     /* 2 break unknown */
	ev(0, 100, "mmap", 0, 0x1000, ANON, 0x41000000);                   /* 3 */
	ev(0, 101, "munmap", 0x42000000, 0x1000, 0, 0);                    /* 4 */
	ev(0, 100, "mremap", 0x40000000, 0x2000, 1 /* MAYMOVE */, 0x50000000); /* 5 */
	ev(0, 101, "munmap", 0x50002000, 0x1000, 0, 0);                    /* 6 in the new place */
	ev(0, 101, "mmap", 0, 0x1000, ANON, -1);                           /* 7 failed */
	ev(0, 100, "munmap", 0x41000000, 0x1000, 0, 0);                    /* 8 */
	evs[4].args[2] = 0x4000;
	evs[6].err = 12;
	is_str(show(0), "2<1 3<2 6<5 7<5 8<7", "unknown break, failed mmap: process-wide; mremap's new place conflicts");
	is_str(show(1), "2<1 3<2 4<3 5<4 6<5 7<5 8<7", "kernel placement: placed mmap and moving mremap wait for everything");
	/* threads start at their clone, unless they made calls before its record */
	reset();
	proc(100, -1);
	step(RP_PROCESS, 0);                                               /* 0 */
	ev(0, 100, "clone", 0, 0, 0, 101);                                 /* 1 starts 101 */
	ev(0, 101, "mmap", 0, 0x1000, ANON, 0x20000000);                   /* 2 */
	ev(0, 102, "mmap", 0, 0x1000, ANON, 0x21000000);                   /* 3 before its clone */
	ev(0, 100, "clone", 0, 0, 0, 102);                                 /* 4 */
	evs[0].flags = evs[3].flags = VMT_EV_THREAD;
	struct rp_deps d;
	if (rp_deps_build(&d, &t, 0, 4096) < 0)
		return 1;
	is_int(d.nlanes, 3, "three lanes");
	is_int(rp_deps_spawned(&d, 1), d.lane[2], "tid 101's thread starts at its clone");
	is_int(rp_deps_spawned(&d, 4), UINT32_MAX, "tid 102 called before its clone: started with the process");
	is_int(rp_deps_spawned(&d, 2), UINT32_MAX, "an mmap starts nothing");
	is_int(d.lane_first[d.lane[3]], 3, "tid 102's first step");
	char chain[64];
	snprintf(chain, sizeof(chain), "%u %u %d", d.next[0], d.next[1], (int)d.next[4]);
	is_str(chain, "1 4 -1", "tid 100's steps chain 0, 1, 4");
	rp_deps_free(&d);
	return done_testing();
}
