/* vm_frame.h - how the guest sends files back over its second serial port.
 *
 * A frame is one header line, the bytes, and a newline:
 *     "VMREC1 <name> <length> <crc32, 8 hex digits>\n" <length bytes> "\n"
 * The guest ends with a frame named "end" of length 0, so the host can tell
 * a complete transfer from a guest that died half way. */
#ifndef VMREC_VM_FRAME_H
#define VMREC_VM_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define VM_FRAME_MAGIC "VMREC1"
#define VM_FRAME_NAME_MAX 64

uint32_t vm_crc32(uint32_t crc, const void *buf, size_t len);

/* Write one frame to fd.  0 on success, -1 with errno on failure. */
int vm_frame_write(int fd, const char *name, const void *data, size_t len);

struct vm_frame {
	char name[VM_FRAME_NAME_MAX];
	const char *data;     /* points into the buffer given to the parser */
	size_t len;
};

/* Split a received stream into frames.  Bytes outside frames are skipped
 * (nothing else should be there).  Returns the number of frames up to and
 * including "end", or -1 with a one-line reason in err: a bad checksum, a
 * frame cut short, or no "end" frame. */
int vm_frames_parse(const char *buf, size_t len, struct vm_frame *frames,
                    int max, char *err, size_t errlen);

/* The frame called name, or NULL. */
const struct vm_frame *vm_frame_find(const struct vm_frame *frames, int n,
                                     const char *name);

#endif
