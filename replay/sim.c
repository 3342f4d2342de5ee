/* The simulator back end: the same calls applied to replay/sim's model. */
#include <errno.h>
#include "replay/backend.h"
#include "replay/latency.h"
#include "replay/sim/sim.h"

static const struct sim_profile *profile;

void rp_sim_set_profile(const void *p) { profile = p; }

static struct rp_space *s_new(const struct vmt_map *map, const struct vmt_host *host)
{
	return (struct rp_space *)sim_mm_new(profile, map, host);
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
	(void)fx;
	*out = (struct vr_result){ .vma_count = -1 };
	uint64_t t0 = lat_now();
	sim_apply((struct sim_mm *)s, ev, file, out);
	out->latency_ns = lat_now() - t0;   /* the model's own cost */
	if (out->err)
		out->outcome = VR_FAILED;
}

static void s_touch(struct rp_space *s, const struct vmt_residency *res)
{
	sim_touch((struct sim_mm *)s, res);
}

static int64_t s_count(struct rp_space *s, const uint64_t (*ranges)[2], size_t n)
{
	(void)ranges;
	(void)n;
	return (int64_t)sim_vma_count((const struct sim_mm *)s);
}

static int s_fork(struct rp_space *s, struct rp_space **child)
{
	*child = (struct rp_space *)sim_mm_fork((const struct sim_mm *)s);
	return *child ? 1 : -ENOMEM;
}

static int s_set_brk(struct rp_space *s, uint64_t start_brk, uint64_t brk)
{
	sim_mm_set_brk((struct sim_mm *)s, start_brk, brk);
	return 0;
}

static void s_free(struct rp_space *s) { sim_mm_free((struct sim_mm *)s); }

const struct rp_backend rp_sim_backend = {
	.target = "sim",
	.space_new = s_new,
	.standin = s_standin,
	.apply = s_apply,
	.touch = s_touch,
	.count = s_count,
	.fork = s_fork,
	.space_free = s_free,
	.set_brk = s_set_brk,
	.per_process = 0,
};
