/* gen.h - a seeded generator of random but valid VMA system calls, steered
 * by a simulated address space so that its targets exist.  Used by the
 * differential tests (tests/sim/) and reusable by any oracle that runs the
 * same sequence elsewhere (a QEMU guest): addresses are offsets from a
 * window base that the runner chooses, so a sequence replays anywhere. */
#ifndef VMREC_SIM_GEN_H
#define VMREC_SIM_GEN_H

#include <stdint.h>
#include "replay/sim/sim.h"

#define SIM_GEN_TOUCH  0x100   /* write one byte per page of [args0, +args1) */
#define SIM_GEN_FORK   VMT_SYS_FORK  /* continue in the child; parent exits */

struct sim_gen_op {
	uint16_t sys;       /* enum vmt_sys, or SIM_GEN_TOUCH */
	uint8_t rel;        /* bit i: args[i] is an offset from the window base */
	uint8_t file;       /* 1..SIM_GEN_FILES: args[4] is that file's fd */
	uint32_t pad;
	uint64_t args[6];
};

#define SIM_GEN_FILES      3
#define SIM_GEN_FILE_SIZE  (1u << 20)   /* below PMD size: no file THP alignment */

struct sim_gen {
	uint64_t rng;
	uint64_t base, size;  /* the window */
	int forks;
};

void sim_gen_init(struct sim_gen *g, uint64_t seed, uint64_t base, uint64_t size);
/* The next operation for address space mm (which must be the simulation of
 * the process the operation will run in). */
void sim_gen_next(struct sim_gen *g, const struct sim_mm *mm, struct sim_gen_op *op);
/* The operation as a trace event (addresses made absolute with base; fd
 * and file_id from op->file). */
void sim_gen_event(const struct sim_gen_op *op, uint64_t base, struct vmt_event *ev);
/* "mprotect(W+0x3000, 0x2000, PROT_READ)" */
const char *sim_gen_format(const struct sim_gen_op *op, char *buf, size_t n);

#endif
