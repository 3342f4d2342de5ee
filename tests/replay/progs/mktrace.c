/* mktrace OUT < SCRIPT: write a vmrec trace from a line script, for replay
 * tests.  Records get increasing seq numbers in script order.
 *   kernel RELEASE     (first: the header's uname -r, this machine's by default)
 *   process PID PPID IMAGE
 *   map PID            then   vma START END PERMS [shared] [rec] [file=ID] [off=N] [NAME]   then   end
 *   file PID ID SIZE PATH [ino=N]   (default inode: ID + 1000, so one per id)
 *   ev PID SYS A0 A1 A2 A3 A4 A5 = RESULT [err=N] [file=ID] [thread] [noreturn]
 *      [tid=N] [seq=N] [end=N] [t=NS] [lat=NS]   (tid: written by that
 *      thread's own writer; seq: this event's seq, later records go on
 *      from it; end: its seq_end; t, lat: its time and latency, 0 unless
 *      given)
 *   ck PID REASON VMAS RECORDER_VMAS [seq=N]
 *   layout PID         then vma lines as for map, then end: the VMAs of
 *                      the checkpoint just written (LAYOUT, its seq)
 *   res PID START NPAGES HEXBYTES [seq=N] [tid=N]   (seq: its event's)
 *   fin PID HOW STATUS LOST  (the process's END record)
 *   flush              (end the current chunk of every writer)
 *   rewrite PID        (close PID's writer; the next record gets a new one, as an
 *                      exec'd image does)
 *   trunc BYTES        (after writing, cut the file to BYTES; negative: from the end)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vmt.h"

static struct { int32_t pid, tid; struct vmt_writer *w; } ws[4096];
static int nws, fd;

static struct vmt_writer *writer_of(int32_t pid, int32_t tid)
{
	for (int i = 0; i < nws; i++)
		if (ws[i].pid == pid && ws[i].tid == tid)
			return ws[i].w;
	ws[nws].pid = pid;
	ws[nws].tid = tid;
	ws[nws].w = vmt_writer_fdopen(fd, pid, tid, NULL);
	return ws[nws++].w;
}

static void put_as(int32_t pid, int32_t tid, const struct vmt_record *r)
{
	if (vmt_write(writer_of(pid, tid), r) < 0) {
		fprintf(stderr, "mktrace: %s\n", vmt_writer_error(writer_of(pid, tid)));
		exit(1);
	}
}

static void put(int32_t pid, const struct vmt_record *r) { put_as(pid, pid, r); }

static uint64_t num(const char *s) { return strtoull(s, NULL, 0); }

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mktrace OUT < SCRIPT\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	struct vmt_record hdr = { .type = VMT_REC_HEADER };
	hdr.u.header.version = VMT_FORMAT_VERSION;
	vmt_host_probe(&hdr.u.header.host);
	hdr.u.header.cmdline = "mktrace";
	char line[1024];
	uint64_t seq = 1;
	long trunc = 0;
	int have_trunc = 0, header_done = 0;
	static struct vmt_vma vmas[4096];
	static char names[4096][256];
	struct vmt_map map = { 0 };
	int layout = 0;             /* the map being read is a LAYOUT */
	while (fgets(line, sizeof(line), stdin)) {
		char *tok[32];
		int n = 0;
		for (char *p = strtok(line, " \t\n"); p && n < 32; p = strtok(NULL, " \t\n"))
			tok[n++] = p;
		if (!n || tok[0][0] == '#')
			continue;
		struct vmt_record r = { 0 };
		int32_t pid = n > 1 ? (int32_t)num(tok[1]) : 0;
		if (strcmp(tok[0], "kernel") == 0 && n >= 2 && !header_done) {
			snprintf(hdr.u.header.host.kernel, sizeof(hdr.u.header.host.kernel), "%s", tok[1]);
			continue;
		}
		if (!header_done && strcmp(tok[0], "trunc") && strcmp(tok[0], "flush")) {
			put(pid, &hdr);
			header_done = 1;
		}
		if (strcmp(tok[0], "process") == 0 && n >= 4) {
			r.type = VMT_REC_PROCESS;
			r.u.process = (struct vmt_process){ .seq = seq++, .pid = pid, .ppid = (int32_t)num(tok[2]),
			                                    .image = (uint32_t)num(tok[3]), .exe = "/bin/test", .cmdline = "test" };
			put(pid, &r);
		} else if (strcmp(tok[0], "map") == 0) {
			map = (struct vmt_map){ .seq = seq++, .pid = pid, .vmas = vmas };
			layout = 0;
		} else if (strcmp(tok[0], "layout") == 0) {
			map = (struct vmt_map){ .seq = seq - 1, .pid = pid, .vmas = vmas };
			layout = 1;
		} else if (strcmp(tok[0], "vma") == 0 && n >= 4) {
			struct vmt_vma *v = &vmas[map.nvma];
			*v = (struct vmt_vma){ .start = num(tok[1]), .end = num(tok[2]), .name = "" };
			v->prot = (tok[3][0] == 'r' ? VMT_PROT_READ : 0) | (tok[3][1] == 'w' ? VMT_PROT_WRITE : 0) |
			          (tok[3][2] == 'x' ? VMT_PROT_EXEC : 0);
			for (int i = 4; i < n; i++) {
				if (strcmp(tok[i], "shared") == 0)
					v->flags |= VMT_VMA_SHARED;
				else if (strcmp(tok[i], "rec") == 0)
					v->flags |= VMT_VMA_RECORDER;
				else if (strncmp(tok[i], "file=", 5) == 0)
					v->file_id = (uint32_t)num(tok[i] + 5);
				else if (strncmp(tok[i], "off=", 4) == 0)
					v->offset = num(tok[i] + 4);
				else {
					snprintf(names[map.nvma], sizeof(names[0]), "%s", tok[i]);
					v->name = names[map.nvma];
				}
			}
			map.nvma++;
		} else if (strcmp(tok[0], "end") == 0) {
			r.type = layout ? VMT_REC_LAYOUT : VMT_REC_MAP;
			r.u.map = map;
			put(map.pid, &r);
		} else if (strcmp(tok[0], "file") == 0 && n >= 5) {
			r.type = VMT_REC_FILE;
			r.u.file = (struct vmt_file){ .id = (uint32_t)num(tok[2]), .pid = pid, .dev = 1,
			                              .ino = num(tok[2]) + 1000, .size = num(tok[3]), .path = tok[4] };
			for (int i = 5; i < n; i++)
				if (strncmp(tok[i], "ino=", 4) == 0)
					r.u.file.ino = num(tok[i] + 4);
				else if (strncmp(tok[i], "fs=", 3) == 0)
					r.u.file.fs_type = num(tok[i] + 3);
			put(pid, &r);
		} else if (strcmp(tok[0], "ev") == 0 && n >= 11) {
			r.type = VMT_REC_EVENT;
			struct vmt_event *e = &r.u.event;
			e->seq = seq++;
			e->pid = e->tid = pid;
			e->sys = (uint16_t)vmt_sys_from_name(tok[2]);
			if (!e->sys) {
				fprintf(stderr, "mktrace: unknown system call %s\n", tok[2]);
				return 1;
			}
			for (int i = 0; i < 6; i++)
				e->args[i] = num(tok[3 + i]);
			e->result = (int64_t)num(tok[10]);
			for (int i = 11; i < n; i++) {
				if (strncmp(tok[i], "err=", 4) == 0) {
					e->err = (int32_t)num(tok[i] + 4);
					e->result = -1;
				} else if (strncmp(tok[i], "file=", 5) == 0)
					e->file_id = (uint32_t)num(tok[i] + 5);
				else if (strcmp(tok[i], "thread") == 0)
					e->flags |= VMT_EV_THREAD;
				else if (strcmp(tok[i], "noreturn") == 0)
					e->flags |= VMT_EV_NORETURN;
				else if (strncmp(tok[i], "tid=", 4) == 0)
					e->tid = (int32_t)num(tok[i] + 4);
				else if (strncmp(tok[i], "seq=", 4) == 0) {
					e->seq = num(tok[i] + 4);
					seq = e->seq + 1;
				} else if (strncmp(tok[i], "end=", 4) == 0)
					e->seq_end = num(tok[i] + 4);
				else if (strncmp(tok[i], "t=", 2) == 0)
					e->time_ns = num(tok[i] + 2);
				else if (strncmp(tok[i], "lat=", 4) == 0)
					e->latency_ns = num(tok[i] + 4);
			}
			put_as(pid, e->tid, &r);
		} else if (strcmp(tok[0], "ck") == 0 && n >= 5) {
			r.type = VMT_REC_CHECKPOINT;
			r.u.checkpoint = (struct vmt_checkpoint){ .seq = seq++, .pid = pid, .reason = (uint32_t)num(tok[2]),
			                                          .vma_count = num(tok[3]), .recorder_vmas = num(tok[4]) };
			if (n >= 6 && strncmp(tok[5], "seq=", 4) == 0)
				seq = (r.u.checkpoint.seq = num(tok[5] + 4)) + 1;
			put(pid, &r);
		} else if (strcmp(tok[0], "fin") == 0 && n >= 5) {
			r.type = VMT_REC_END;
			r.u.end = (struct vmt_end){ .seq = seq++, .pid = pid, .how = (uint32_t)num(tok[2]),
			                            .status = (int32_t)num(tok[3]), .lost = num(tok[4]) };
			put(pid, &r);
		} else if (strcmp(tok[0], "res") == 0 && n >= 5) {
			static uint8_t bits[4096];
			size_t nb = strlen(tok[4]) / 2;
			for (size_t i = 0; i < nb && i < sizeof(bits); i++) {
				char h[3] = { tok[4][2 * i], tok[4][2 * i + 1], 0 };
				bits[i] = (uint8_t)strtoul(h, NULL, 16);
			}
			r.type = VMT_REC_RESIDENCY;
			r.u.residency = (struct vmt_residency){ .seq = seq++, .pid = pid, .start = num(tok[2]),
			                                        .npages = num(tok[3]), .bits = bits };
			int32_t tid = pid;
			for (int i = 5; i < n; i++) {
				if (strncmp(tok[i], "seq=", 4) == 0)
					r.u.residency.seq = num(tok[i] + 4);   /* its event's */
				else if (strncmp(tok[i], "tid=", 4) == 0)
					tid = (int32_t)num(tok[i] + 4);
			}
			put_as(pid, tid, &r);
		} else if (strcmp(tok[0], "rewrite") == 0 && n >= 2) {
			for (int i = 0; i < nws; i++)
				if (ws[i].pid == pid) {
					vmt_writer_close(ws[i].w);
					ws[i] = ws[--nws];
					break;
				}
		} else if (strcmp(tok[0], "flush") == 0) {
			for (int i = 0; i < nws; i++)
				vmt_writer_flush(ws[i].w);
		} else if (strcmp(tok[0], "trunc") == 0 && n >= 2) {
			trunc = strtol(tok[1], NULL, 0);
			have_trunc = 1;
		} else {
			fprintf(stderr, "mktrace: bad line: %s\n", tok[0]);
			return 1;
		}
	}
	if (!header_done)
		put(0, &hdr);
	for (int i = 0; i < nws; i++)
		if (vmt_writer_close(ws[i].w) < 0) {
			fprintf(stderr, "mktrace: close failed\n");
			return 1;
		}
	if (have_trunc) {
		off_t size = lseek(fd, 0, SEEK_END);
		if (ftruncate(fd, trunc < 0 ? size + trunc : trunc) < 0)
			perror("ftruncate");
	}
	close(fd);
	return 0;
}
