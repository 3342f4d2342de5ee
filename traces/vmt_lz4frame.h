/* vmt_lz4frame.h - standard LZ4 frames built and parsed by hand, so the
 * writer needs no allocation (caller-provided compression state) and the
 * reader checks every bound itself.  Internal to the trace library. */
#ifndef VMT_LZ4FRAME_H
#define VMT_LZ4FRAME_H

#include <stddef.h>
#include <stdint.h>

/* Largest frame vmt_lz4f_write makes from n bytes. */
size_t vmt_lz4f_bound(size_t n);
/* Bytes of compression state vmt_lz4f_write needs at this level. */
size_t vmt_lz4f_state_size(int level);
/* One frame (one block, content checksum) of src[0..n), n <= 4 MiB, into
 * dst (vmt_lz4f_bound(n) bytes).  Returns the frame's size.  Only
 * computation: async-signal-safe. */
size_t vmt_lz4f_write(uint8_t *dst, const uint8_t *src, size_t n,
                      void *state, int level);
/* Decode the frame that occupies exactly src[0..len) into dst[0..cap).
 * Returns the content size, or a negative VMT_E* code; *why names the
 * problem. */
long vmt_lz4f_read(const uint8_t *src, size_t len, uint8_t *dst, size_t cap,
                   const char **why);

#endif
