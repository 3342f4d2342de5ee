/* maps.h - /proc/self/maps read with raw system calls into recorder memory
 * (no stdio, no malloc), parsed one line at a time. */
#ifndef SHIM_MAPS_H
#define SHIM_MAPS_H

#include <stddef.h>
#include <stdint.h>

struct maps_line {
	uint64_t start, end, offset, ino;
	uint32_t dev_major, dev_minor;
	char perms[5];              /* "rw-p" */
	const char *name;           /* NUL-terminated, "" when anonymous */
};

/* One read of /proc/self/maps, walked as often as needed (the MAP record
 * and the checkpoint at an image's start share one). */
struct maps_snap { char *buf; size_t len, cap; int lines; };
int maps_read(struct maps_snap *m);          /* 0, or -errno */
/* Calls fn for every line until it returns non-zero; the lines parsed. */
int maps_snap_each(const struct maps_snap *m, int (*fn)(const struct maps_line *l, void *arg),
                   void *arg);
void maps_release(struct maps_snap *m);
/* maps_read, maps_snap_each, maps_release; the lines, or -errno. */
int maps_each(int (*fn)(const struct maps_line *l, void *arg), void *arg);
/* Is this VMA the recorder's own (arena, counter, libvmrec.so itself)? */
int maps_is_recorder(const struct maps_line *l);
void maps_set_self_path(const char *path);
/* [start, end) was mapped (or unmapped) by the recorder's own libraries. */
void maps_own(uint64_t start, uint64_t end);
void maps_disown(uint64_t start, uint64_t end);

#endif
