/* The simulator back end: the same calls applied to replay/sim's model. */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "replay/backend.h"
#include "replay/latency.h"
#include "replay/sim/sim.h"
#include "lib/compat.h"

/* One simulated address space: the model's, and what this adapter has
 * learnt about the recorded process (a fork child starts with its
 * parent's knowledge, as it has its parent's capabilities). */
struct sim_space {
	struct sim_mm *mm;
	int cap_rawio;       /* CAP_SYS_RAWIO: -1 not known yet */
	const struct sim_calib *calib;   /* the costs of vmreplay.model.cost_ns */
	uint64_t min_addr;   /* the recording's mmap_min_addr */
};

static struct sim_space *sp_of(struct rp_space *s) { return (struct sim_space *)s; }

static int s_vmas(struct rp_space *s, void (*fn)(void *arg, const struct rp_vma *v, uint32_t i), void *arg)
{
	const struct sim_mm *mm = sp_of(s)->mm;
	for (size_t i = 0, total = sim_vma_count(mm); i < total; i++) {
		struct sim_vma_view v;
		if (sim_vma_at(mm, i, &v) < 0)
			break;
		/* VM_READ, VM_WRITE, VM_EXEC, VM_SHARED are bits 0-3 */
		fn(arg, &(struct rp_vma){ .start = v.start, .end = v.end, .prot = (uint32_t)(v.vm_flags & 7),
		                          .shared = (v.vm_flags & 8) != 0, .file = v.file_id },
		   (uint32_t)i);
	}
	return 0;
}

static struct rp_space *s_new(const struct rp_backend_cfg *cfg, const struct vmt_map *map,
                              const struct vmt_host *host)
{
	struct sim_space *sp = malloc(sizeof(*sp));
	if (!sp)
		return NULL;
	*sp = (struct sim_space){
		.mm = sim_mm_new_thp(cfg->profile, map, host, cfg->thp),
		.cap_rawio = -1,
		.calib = cfg->calib ? cfg->calib : sim_calib_default(),
		.min_addr = host && host->mmap_min_addr ? host->mmap_min_addr : 4096,
	};
	if (!sp->mm) {
		free(sp);
		return NULL;
	}
	sim_mm_set_mthp(sp->mm, cfg->mthp_always, cfg->mthp_madvise);
	sim_mm_keep_events(sp->mm, cfg->events);
	return (struct rp_space *)sp;
}

/* The trace does not record capabilities.  The first recorded call that
 * asked for a fixed address below mmap_min_addr shows whether the process
 * had CAP_SYS_RAWIO: it succeeded, or failed with EPERM. */
static void learn_cap_rawio(struct sim_space *sp, const struct vmt_event *ev)
{
	uint64_t at;
	if (ev->sys == VMT_SYS_MMAP && (ev->args[3] & (MAP_FIXED | MAP_FIXED_NOREPLACE)))
		at = ev->args[0];
	else if (ev->sys == VMT_SYS_MREMAP && (ev->args[3] & MREMAP_FIXED))
		at = ev->args[4];
	else
		return;
	if (at >= sp->min_addr || (ev->err && ev->err != EPERM))
		return;
	sp->cap_rawio = !ev->err;
	sim_mm_set_cap_rawio(sp->mm, sp->cap_rawio);
}

/* The simulator builds the initial map itself in sim_mm_new. */
static int s_standin(struct rp_space *s, const struct rp_standin_map *m)
{
	(void)s;
	(void)m;
	return 0;
}

static void s_apply(struct rp_space *s, const struct vmt_event *ev, const struct vmt_file *file,
                    struct rp_effect *fx, struct vr_result *out)
{
	*out = (struct vr_result){ .vma_count = -1 };
	struct sim_space *sp = sp_of(s);
	if (sp && sp->cap_rawio < 0)
		learn_cap_rawio(sp, ev);
	uint64_t t0 = lat_now();
	sim_apply_ranges(sp ? sp->mm : NULL, ev, file, fx ? fx->ranges : NULL, out);
	out->latency_ns = lat_now() - t0;   /* the model's own cost */
	if (out->err)
		out->outcome = VR_FAILED;
}

static void s_touch(struct rp_space *s, const struct vmt_residency *res)
{
	sim_touch(sp_of(s)->mm, res);
}

static int64_t s_count(struct rp_space *s, const uint64_t (*ranges)[2], size_t n)
{
	(void)ranges;
	(void)n;
	return (int64_t)sim_vma_count(sp_of(s)->mm);
}

struct unheld {
	const struct addrmap *holds;
	int64_t n;
};

static void drop_held(void *arg, const struct rp_vma *v, uint32_t i)
{
	struct unheld *u = arg;
	const struct am_range *r = am_find(u->holds, v->start);
	(void)i;
	u->n -= r && v->end <= r->end;
}

/* The model's VMAs but those of the recorder (wholly inside one of its
 * ranges), as the kernel replay counts only what meets the program's
 * ranges: a program VMA merged with the recorder's counts once. */
static int64_t s_count_image(struct rp_space *s, const struct rp_image *img)
{
	struct unheld u = { .holds = img->holds, .n = (int64_t)sim_vma_count(sp_of(s)->mm) };
	if (img->holds->n)
		s_vmas(s, drop_held, &u);
	return u.n;
}

static int s_fork(struct rp_space *s, uint64_t seq, struct rp_forked *f)
{
	const struct sim_space *parent = sp_of(s);
	struct sim_space *sp = malloc(sizeof(*sp));
	if (sp && !(sp->mm = sim_mm_fork(parent->mm))) {
		free(sp);
		sp = NULL;
	}
	if (sp) {
		sp->cap_rawio = parent->cap_rawio;
		sp->calib = parent->calib;
		sp->min_addr = parent->min_addr;
		sim_cost_keep(sp->mm, seq);   /* per event: the fork's, not the child's first */
	}
	*f = (struct rp_forked){ .child = (struct rp_space *)sp };
	return sp ? 0 : -ENOMEM;
}

/* The heap where it was recorded: the model owns the whole space. */
static int s_place_heap(struct rp_space *s, const struct vmt_map *m, struct rp_heap *h)
{
	(void)m;
	sim_mm_set_brk(sp_of(s)->mm, h->start_brk, h->brk);
	h->brk_delta = 0;
	h->cur_brk = h->brk;
	return 0;
}

static void s_free(struct rp_space *s)
{
	if (s)
		sim_mm_free(sp_of(s)->mm);
	free(s);
}

/* the counts, then the modelled time they add up to (cost_ns) */
static void s_model(struct rp_space *s, uint64_t *acc)
{
	struct sim_cost c;
	sim_mm_cost(sp_of(s)->mm, &c);
	for (int i = 0; i < SIM_COST_COUNT; i++)
		acc[i] += sim_cost_value(&c, i);
	acc[SIM_COST_COUNT] += (uint64_t)(sim_cost_ns(&c, sp_of(s)->calib) + 0.5);
}

static const char *s_model_name(int i)
{
	return i == SIM_COST_COUNT ? "cost_ns" : sim_cost_name(i);
}

_Static_assert(SIM_COST_COUNT + 1 <= RP_MODEL_MAX, "RP_MODEL_MAX holds every modelled cost");

const struct rp_backend rp_sim_backend = {
	.target = "sim",
	.space_new = s_new,
	.standin = s_standin,
	.apply = s_apply,
	.touch = s_touch,
	.count = s_count,
	.count_image = s_count_image,
	.vmas = s_vmas,
	.fork = s_fork,
	.space_free = s_free,
	.nmodel = SIM_COST_COUNT + 1,
	.model_name = s_model_name,
	.model = s_model,
	.place_heap = s_place_heap,
	.replayer_processes = 0,
	.recorded_addresses = 1,
	.real_objects = 0,
	.counts_each_call = 1,
};
