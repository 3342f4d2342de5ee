/* brk_loop ITERATIONS [TRACE]: the AIM9-style brk loop (16 x grow the break
 * by a page, then shrink it by 16 pages) run natively; prints
 * "brk_loop: N calls, X ops/s".  With TRACE, also writes what it did as a
 * vmrec trace (initial map from /proc/self/maps, one event per call with
 * the real result) for vmreplay to replay the same loop. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "vmt.h"

#define PAGE 4096ul

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct vmt_writer *w;
static uint64_t seq = 1;

static void put(const struct vmt_record *r)
{
	if (w && vmt_write(w, r) < 0) {
		fprintf(stderr, "brk_loop: %s\n", vmt_writer_error(w));
		exit(1);
	}
}

static void put_brk(uint64_t arg, uint64_t result)
{
	struct vmt_record r = { .type = VMT_REC_EVENT };
	r.u.event = (struct vmt_event){ .seq = seq++, .pid = getpid(), .tid = getpid(),
	                                .sys = VMT_SYS_BRK, .result = (int64_t)result, .args = { arg } };
	put(&r);
}

/* The program's map: every line of /proc/self/maps. */
static unsigned write_map(void)
{
	static struct vmt_vma v[512];
	static char names[512][128];
	unsigned n = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	while (f && n < 512 && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off, ino = 0;
		unsigned maj = 0, min = 0;
		char perms[8], name[256] = "";
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %255s", &s, &e, perms, &off, &maj, &min,
		           &ino, name) < 4)
			continue;
		uint32_t file_id = 0;
		if (ino) {   /* one file record per inode, ids in order of appearance */
			static uint64_t inos[512];
			static unsigned ninos;
			for (unsigned i = 0; i < ninos; i++)
				if (inos[i] == ino)
					file_id = i + 1;
			if (!file_id) {
				inos[ninos++] = ino;
				file_id = ninos;
				struct vmt_record fr = { .type = VMT_REC_FILE };
				fr.u.file = (struct vmt_file){ .id = file_id, .pid = getpid(),
					.dev = ((uint64_t)maj << 8) | min, .ino = ino, .size = 0, .path = name };
				put(&fr);
			}
		}
		snprintf(names[n], sizeof(names[n]), "%s", name);
		v[n] = (struct vmt_vma){ .start = s, .end = e, .name = names[n], .file_id = file_id,
			.offset = ino ? off : 0,
			.prot = (perms[0] == 'r' ? VMT_PROT_READ : 0) | (perms[1] == 'w' ? VMT_PROT_WRITE : 0) |
			        (perms[2] == 'x' ? VMT_PROT_EXEC : 0),
			.flags = perms[3] == 's' ? VMT_VMA_SHARED : 0 };
		n++;
	}
	if (f)
		fclose(f);
	struct vmt_record r = { .type = VMT_REC_MAP };
	r.u.map = (struct vmt_map){ .seq = seq++, .pid = getpid(), .nvma = n, .vmas = v };
	put(&r);
	return n;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: brk_loop ITERATIONS [TRACE]\n");
		return 2;
	}
	long iters = atol(argv[1]);
	if (argc > 2) {
		int err;
		w = vmt_writer_open(argv[2], NULL, &err);
		if (!w) {
			fprintf(stderr, "brk_loop: %s: %s\n", argv[2], vmt_strerror(err));
			return 1;
		}
		struct vmt_record h = { .type = VMT_REC_HEADER };
		h.u.header.version = VMT_FORMAT_VERSION;
		vmt_host_probe(&h.u.header.host);
		h.u.header.cmdline = "brk_loop";
		put(&h);
		struct vmt_record p = { .type = VMT_REC_PROCESS };
		p.u.process = (struct vmt_process){ .seq = seq++, .pid = getpid(), .ppid = getppid(),
		                                    .exe = "brk_loop", .cmdline = "brk_loop" };
		put(&p);
	}
	/* The loop starts at the end of a heap that holds allocations in both
	 * modes (the trace writer's, and this one), as in AIM9's process:
	 * growing a heap VMA that has pages costs the kernel ~10% more than
	 * growing an empty one, so a native run on an empty heap would be
	 * compared with a replay of a different address space. */
	static volatile char *volatile warm;   /* kept, and a leak checker sees it held */
	warm = malloc(64);
	if (warm)
		warm[0] = 1;
	uint64_t cur = (uint64_t)syscall(SYS_brk, 0);
	if (w) {
		unsigned n = write_map();
		struct vmt_record c = { .type = VMT_REC_CHECKPOINT };
		c.u.checkpoint = (struct vmt_checkpoint){ .seq = seq++, .pid = getpid(), .reason = VMT_CK_START, .vma_count = n };
		put(&c);
		put_brk(0, cur);
	}
	/* grow once so the loop never shrinks below the start */
	uint64_t t0 = now_ns();
	long calls = 0;
	for (long i = 0; i < iters; i++) {
		for (int k = 0; k < 16; k++) {
			uint64_t r = (uint64_t)syscall(SYS_brk, cur + PAGE);
			if (w)
				put_brk(cur + PAGE, r);
			cur = r;
		}
		uint64_t r = (uint64_t)syscall(SYS_brk, cur - 16 * PAGE);
		if (w)
			put_brk(cur - 16 * PAGE, r);
		cur = r;
		calls += 17;
	}
	uint64_t t1 = now_ns();
	if (w) {
		FILE *f = fopen("/proc/self/maps", "r");
		unsigned n = 0;
		char line[512];
		while (f && fgets(line, sizeof(line), f))
			n++;
		if (f)
			fclose(f);
		struct vmt_record c = { .type = VMT_REC_CHECKPOINT };
		c.u.checkpoint = (struct vmt_checkpoint){ .seq = seq++, .pid = getpid(), .reason = VMT_CK_EXIT, .vma_count = n };
		put(&c);
		if (vmt_writer_close(w) < 0)
			return 1;
	}
	printf("brk_loop: %ld calls, %.0f ops/s\n", calls, (double)calls * 1e9 / (double)(t1 - t0));
	return 0;
}
