/* seqgen.c - seeded sequences of VMA operations written as vmrec traces, for
 * the differential test of the simulator against real kernels.
 *
 *   vm-seqgen SEED OPS OUT.trace   write the trace, list the operations on stdout
 *   vm-seqgen probe OUT.trace      the probe of docs/kernel-observed.md's table
 *   vm-seqgen list OPS.txt OUT.trace   the operations of a listing (as printed
 *                                  above, e.g. a reduced sequence) as a trace
 *
 * Every operation works inside one window of WINDOW pages at a fixed
 * address, so the sequence means the same in any address space: MAP_FIXED
 * anonymous mmaps (some MAP_STACK or MAP_NORESERVE), munmaps, and mprotect /
 * madvise(MADV_DONTFORK, MADV_DOFORK) of fully mapped ranges.  No page is
 * touched, so no VMA gets an anon_vma. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "vmt.h"

#define WINDOW 32
#define BASE 0x7e0000000000ull
#define PAGE 4096ull

struct gen {
	uint64_t rng;
	unsigned char mapped[WINDOW];
};

static uint32_t rnd(struct gen *g, uint32_t n)
{
	/* splitmix64: the same sequence for a seed on every machine */
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) % n);
}

static const struct { int prot; const char *name; } prots[] = {
	{ PROT_READ | PROT_WRITE, "rw-" }, { PROT_READ, "r--" },
	{ PROT_NONE, "---" }, { PROT_READ | PROT_WRITE, "rw-" },
};

static int all_mapped(const struct gen *g, uint32_t p, uint32_t n)
{
	for (uint32_t i = p; i < p + n; i++)
		if (!g->mapped[i])
			return 0;
	return 1;
}

/* One random operation into ev (args and result); its text into line. */
static void next_op(struct gen *g, struct vmt_event *ev, char *line, size_t len)
{
	uint32_t p = rnd(g, WINDOW), n = 1 + rnd(g, 8);
	if (p + n > WINDOW)
		n = WINDOW - p;
	uint64_t addr = BASE + p * PAGE, bytes = n * PAGE;
	uint32_t kind = rnd(g, 10);
	int k = (int)rnd(g, 4);

	if (kind >= 4 && !all_mapped(g, p, n))
		kind = rnd(g, 4) ? 0 : 3;
	memset(ev->args, 0, sizeof ev->args);
	ev->result = 0;
	if (kind < 3) {
		static const struct { int flags; const char *name; } extra[] = {
			{ 0, "" }, { 0, "" }, { MAP_STACK, " stack" }, { MAP_NORESERVE, " noreserve" },
		};
		int x = (int)rnd(g, 4);
		ev->sys = VMT_SYS_MMAP;
		ev->args[0] = addr;
		ev->args[1] = bytes;
		ev->args[2] = (uint64_t)prots[k].prot;
		ev->args[3] = (uint64_t)(MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | extra[x].flags);
		ev->args[4] = (uint64_t)-1;
		ev->result = (int64_t)addr;
		memset(g->mapped + p, 1, n);
		snprintf(line, len, "mmap(+%up, %up, %s, fixed%s)", p, n, prots[k].name, extra[x].name);
	} else if (kind == 3) {
		ev->sys = VMT_SYS_MUNMAP;
		ev->args[0] = addr;
		ev->args[1] = bytes;
		memset(g->mapped + p, 0, n);
		snprintf(line, len, "munmap(+%up, %up)", p, n);
	} else if (kind < 8) {
		ev->sys = VMT_SYS_MPROTECT;
		ev->args[0] = addr;
		ev->args[1] = bytes;
		ev->args[2] = (uint64_t)prots[k].prot;
		snprintf(line, len, "mprotect(+%up, %up, %s)", p, n, prots[k].name);
	} else {
		int fork_off = kind == 8;
		ev->sys = VMT_SYS_MADVISE;
		ev->args[0] = addr;
		ev->args[1] = bytes;
		ev->args[2] = fork_off ? MADV_DONTFORK : MADV_DOFORK;
		snprintf(line, len, "madvise(+%up, %up, %s)", p, n,
		         fork_off ? "dontfork" : "dofork");
	}
}

/* The behaviours docs/kernel-observed.md lists for 6.1 and 6.12, seen through
 * outcomes: hint-less anonymous mmaps alternating between 8 MiB + 4 KiB
 * (never aligned) and 2 or 4 MiB.  6.1 places each right below the previous
 * one, so all merge.  From 6.7 the 2/4 MiB ones start on a 2 MiB boundary,
 * which leaves a gap below the odd one above them (its start is 4 KiB short
 * of a boundary once the first aligned map is placed): a new VMA each time,
 * while the odd ones still merge down onto the aligned ones.  Then a plain
 * anonymous page, an adjacent MAP_STACK page and another plain page after
 * it: one VMA on 6.1; three from 6.8 (MAP_STACK is VM_NOHUGEPAGE). */
static int probe_op(int i, struct vmt_event *ev, char *line, size_t len)
{
	/* page: where in the window a MAP_FIXED map goes; -1: no hint */
	static const struct { int page; uint64_t bytes; int flags; const char *name; } ops[] = {
		{ -1, (8 << 20) + PAGE, 0, "8M+4K" }, { -1, 2 << 20, 0, "2M" },
		{ -1, (8 << 20) + PAGE, 0, "8M+4K" }, { -1, 4 << 20, 0, "4M" },
		{ -1, (8 << 20) + PAGE, 0, "8M+4K" }, { -1, 2 << 20, 0, "2M" },
		{ -1, (8 << 20) + PAGE, 0, "8M+4K" }, { -1, 4 << 20, 0, "4M" },
		{ 0, PAGE, MAP_FIXED, "plain" },
		{ 1, PAGE, MAP_FIXED | MAP_STACK, "stack" },
		{ 2, PAGE, MAP_FIXED, "plain" },
	};
	if (i >= (int)(sizeof ops / sizeof ops[0]))
		return 0;
	memset(ev->args, 0, sizeof ev->args);
	ev->sys = VMT_SYS_MMAP;
	/* the recorded result of a hint-less map: anywhere below the window */
	uint64_t addr = ops[i].page >= 0 ? BASE + (uint64_t)ops[i].page * PAGE
	                                 : BASE - (uint64_t)(i + 1) * (16 << 20);
	ev->args[0] = ops[i].page >= 0 ? addr : 0;
	ev->args[1] = ops[i].bytes;
	ev->args[2] = PROT_READ | PROT_WRITE;
	ev->args[3] = (uint64_t)(MAP_PRIVATE | MAP_ANONYMOUS | ops[i].flags);
	ev->args[4] = (uint64_t)-1;
	ev->result = (int64_t)addr;
	snprintf(line, len, "mmap(%s)", ops[i].name);
	return 1;
}

/* Parse one line of a listing ("3: mprotect(+5p, 2p, r--)") into ev. */
static int parse_op(const char *line, struct vmt_event *ev)
{
	char name[16], rest[48] = "";
	unsigned p, n;
	int prot = -1;

	/* rest: "", ", rw-, fixed stack" or ", dontfork" */
	if (sscanf(line, "%*d: %15[a-z](+%up, %up%47[^)]", name, &p, &n, rest) < 3)
		return -1;
	if (p + n > WINDOW || !n)
		return -1;
	for (size_t k = 0; k < sizeof prots / sizeof prots[0]; k++)
		if (!strncmp(rest, ", ", 2) && !strncmp(rest + 2, prots[k].name, 3))
			prot = prots[k].prot;
	const char *a4 = rest;
	memset(ev->args, 0, sizeof ev->args);
	ev->args[0] = BASE + p * PAGE;
	ev->args[1] = n * PAGE;
	ev->result = 0;
	if (!strcmp(name, "mmap") && prot >= 0) {
		int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED;
		flags |= strstr(a4, "stack") ? MAP_STACK : 0;
		flags |= strstr(a4, "noreserve") ? MAP_NORESERVE : 0;
		ev->sys = VMT_SYS_MMAP;
		ev->args[2] = (uint64_t)prot;
		ev->args[3] = (uint64_t)flags;
		ev->args[4] = (uint64_t)-1;
		ev->result = (int64_t)ev->args[0];
	} else if (!strcmp(name, "munmap")) {
		ev->sys = VMT_SYS_MUNMAP;
	} else if (!strcmp(name, "mprotect") && prot >= 0) {
		ev->sys = VMT_SYS_MPROTECT;
		ev->args[2] = (uint64_t)prot;
	} else if (!strcmp(name, "madvise") && (strstr(a4, "dontfork") || strstr(a4, "dofork"))) {
		ev->sys = VMT_SYS_MADVISE;
		ev->args[2] = strstr(a4, "dontfork") ? MADV_DONTFORK : MADV_DOFORK;
	} else {
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int probe = argc == 3 && !strcmp(argv[1], "probe");
	FILE *list = NULL;
	if (argc != 4 && !probe) {
		fprintf(stderr, "usage: vm-seqgen SEED OPS OUT.trace | vm-seqgen probe OUT.trace"
		        " | vm-seqgen list OPS.txt OUT.trace\n");
		return 2;
	}
	if (!probe && !strcmp(argv[1], "list") && !(list = fopen(argv[2], "r"))) {
		fprintf(stderr, "vm-seqgen: %s: cannot open\n", argv[2]);
		return 1;
	}
	const char *out = argv[argc - 1];
	struct gen g = { .rng = strtoull(argv[1], NULL, 0) };
	int ops = probe || list ? 1 << 20 : atoi(argv[2]), err;
	struct vmt_writer *w = vmt_writer_open(out, NULL, &err);
	if (!w) {
		fprintf(stderr, "vm-seqgen: %s: %s\n", out, vmt_strerror(err));
		return 1;
	}
	int32_t pid = 1000;
	struct vmt_record rec = { .type = VMT_REC_HEADER };
	rec.u.header.version = VMT_FORMAT_VERSION;
	vmt_host_probe(&rec.u.header.host);
	rec.u.header.cmdline = "vm-seqgen";
	vmt_write(w, &rec);

	memset(&rec, 0, sizeof rec);
	rec.type = VMT_REC_PROCESS;
	rec.u.process.pid = pid;
	rec.u.process.exe = "/vm-seqgen";
	rec.u.process.cmdline = argv[1];
	vmt_write(w, &rec);

	for (int i = 0; i < ops; i++) {
		char line[96];
		memset(&rec, 0, sizeof rec);
		rec.type = VMT_REC_EVENT;
		rec.u.event.seq = (uint64_t)i + 1;
		rec.u.event.time_ns = (uint64_t)i * 1000;
		rec.u.event.pid = rec.u.event.tid = pid;
		if (list) {
			if (!fgets(line, sizeof line, list))
				break;
			line[strcspn(line, "\n")] = 0;
			if (line[0] == '#' || !line[0]) {
				i--;
				continue;
			}
			if (parse_op(line, &rec.u.event)) {
				fprintf(stderr, "vm-seqgen: %s: not an operation: %s\n", argv[2], line);
				return 1;
			}
			char *colon = strchr(line, ':');
			memmove(line, colon + 2, strlen(colon + 2) + 1);
		} else if (!probe) {
			next_op(&g, &rec.u.event, line, sizeof line);
		} else if (!probe_op(i, &rec.u.event, line, sizeof line)) {
			break;
		}
		vmt_write(w, &rec);
		printf("%d: %s\n", i, line);
	}
	if (vmt_writer_close(w)) {
		fprintf(stderr, "vm-seqgen: %s: write failed\n", out);
		return 1;
	}
	return 0;
}
