/* placeholder until the simulator lands: knows no profile */
#include <stddef.h>
#include "replay/sim/sim.h"

const struct sim_profile *sim_profile_find(const char *version) { (void)version; return NULL; }
const char *sim_profile_name(const struct sim_profile *p) { (void)p; return "?"; }
const char *sim_profile_names(void) { return ""; }
struct sim_mm *sim_mm_new(const struct sim_profile *p, const struct vmt_map *map,
                          const struct vmt_host *host) { (void)p; (void)map; (void)host; return NULL; }
struct sim_mm *sim_mm_fork(const struct sim_mm *parent) { (void)parent; return NULL; }
void sim_mm_free(struct sim_mm *mm) { (void)mm; }
void sim_apply(struct sim_mm *mm, const struct vmt_event *ev, const struct vmt_file *file,
               struct vr_result *out) { (void)mm; (void)ev; (void)file; out->outcome = VR_FAILED; out->err = 38; }
void sim_touch(struct sim_mm *mm, const struct vmt_residency *res) { (void)mm; (void)res; }
size_t sim_vma_count(const struct sim_mm *mm) { (void)mm; return 0; }
int sim_vma_at(const struct sim_mm *mm, size_t i, struct sim_vma_view *v) { (void)mm; (void)i; (void)v; return -1; }
