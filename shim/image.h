/* image.h - the records that describe a process image: header, process,
 * initial memory map, file identities and VMA-count checkpoints. */
#ifndef SHIM_IMAGE_H
#define SHIM_IMAGE_H

#include <stddef.h>
#include <stdint.h>

void image_header(void);                     /* first process of the trace only */
void image_process(uint64_t seq);
struct maps_snap;
/* The MAP record and a checkpoint from one read of /proc/self/maps
 * (maps.h): nothing between them changes a VMA. */
void image_map(uint64_t seq, const struct maps_snap *m);
void image_checkpoint_in(int reason, const struct maps_snap *m);
void image_checkpoint(int reason);           /* reads /proc/self/maps itself */
/* Identity record for a file, once per (dev, ino) per image; 0 if unknown. */
uint32_t image_file_fd(int fd);
/* A new identity record, never shared with another call (shmat's segment:
 * a map's line of it carries no size). */
uint32_t image_file_new(uint64_t dev, uint64_t ino, uint64_t size, const char *path, uint64_t fs_type);
void image_files_reset(void);
/* The program's path (/proc/self/exe) in buf; "" if unknown. */
const char *image_exe(char *buf, size_t cap);

#endif
