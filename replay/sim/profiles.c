/* profiles.c - the rules that differ between kernel releases, each stated
 * once beside the commit that introduced it.  A profile is a release: a
 * rule applies from its first release on.  docs/kernel-profiles.md says
 * how sure we are of each. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include "replay/sim/sim_int.h"

const struct sim_rule sim_rules[R_COUNT] = {
	[R_B1_BRK_EXPAND]    = { R_B1_BRK_EXPAND, "B1", "6c28ca6485dd", 6, 1,
		"brk expands only a heap VMA that ends at the old break and can merge after; never the next VMA", false, 0, 0, { { 0 } } },
	[R_T1_THP_ALIGN]     = { R_T1_THP_ALIGN, "T1", "efa7df3e3bb5", 6, 7,
		"anonymous mmaps of at least PMD size are placed PMD-aligned", false, 0, 0, { { 0 } } },
	[R_T3_THP_TOPDOWN]   = { R_T3_THP_TOPDOWN, "T3", "96204e15310c", 6, 8,
		"PMD-aligned search keeps top-down order (already aligned: top of the padded gap)", false, 0, 0, { { 0 } } },
	[R_T4_STACK_NOHUGE]  = { R_T4_STACK_NOHUGE, "T4", "c4608d1bf7c6", 6, 8,
		"MAP_STACK sets VM_NOHUGEPAGE", false, 0, 0, { { 0 } } },
	[R_X1_MSEAL]         = { R_X1_MSEAL, "X1", "8be7258aad44", 6, 10,
		"mseal(2): VM_SEALED, part of flag equality", false, 0, 0, { { 0 } } },
	[R_M1_MERGE_REWRITE] = { R_M1_MERGE_REWRITE, "M1", "cacded5e42b9", 6, 12,
		"merge rewrite (vma_merge_struct); same outcomes for VMAs without vm_ops", false, 0, 0, { { 0 } } },
	[R_T5_THP_MULTIPLE]  = { R_T5_THP_MULTIPLE, "T5", "d4148aeab412", 6, 12,
		"only lengths that are a multiple of PMD size are aligned", false, 0, 0, { { 0 } } },
	[R_T6_THP_NO_HINT]   = { R_T6_THP_NO_HINT, "T6", "249608ee4713", 6, 13,
		"no PMD alignment when an address hint is given", false, 0, 0, { { 0 } } },
	[R_X3_GUARD_REGIONS] = { R_X3_GUARD_REGIONS, "X3", "662df3e5c376", 6, 13,
		"MADV_GUARD_INSTALL/REMOVE (page-table markers, no VMA change)", false, 0, 0, { { 0 } } },
	[R_M4_ANON_MERGE]    = { R_M4_ANON_MERGE, "M4", "879bca0a2c4f", 6, 16,
		"unfaulted VMA may merge with a faulted one unless the faulted one is a fork child", false, 0, 0, { { 0 } } },
	[R_A1_RO_UNACCOUNT]  = { R_A1_RO_UNACCOUNT, "A1", "mprotect_fixup", 6, 6,
		"mprotect to read-only drops VM_ACCOUNT of an unfaulted anonymous VMA", false, 0, 0, { { 0 } } },
	/* Mainline since 2.6.32 (seen on real 6.1.0-57 and 6.12.117 too), yet
	 * one 6.18.44 build (-fc-v782) gave populated read-only memory an
	 * anon_vma: every release has it, `host` asks the running kernel. */
	[R_Z1_RO_POPULATE]   = { R_Z1_RO_POPULATE, "Z1", "a13ea5b75964", 2, 6,
		"populating read-only private anonymous memory maps the zero page: no anon_vma "
		"(only a PMD fault in a VM_HUGEPAGE range prepares one)", true, 0, 0, { { 0 } } },
	/* Fixed in 2026 (in linux-next at 7.3-rc5) and taken by the stable
	 * releases the 6.1 and 6.12 profiles stand for (Debian's 6.1.192 and
	 * 6.12.117); the host's 6.18.44 still self-merges, so `host` probes. */
	[R_D1_DONTUNMAP_APART] = { R_D1_DONTUNMAP_APART, "D1", "stable 6.1.191/6.12.114", 7, 3,
		"MREMAP_DONTUNMAP: an unfaulted source is not merged with its own copy, a locked "
		"source is split first, a wholly moved source gets pgoff = start", true,
		0, 0, { { 6, 1, 191 }, { 6, 12, 114 } } },
	[R_A2_DONTUNMAP_UNACCT] = { R_A2_DONTUNMAP_UNACCT, "A2", "b714ccb02a76", 6, 16,
		"MREMAP_DONTUNMAP clears VM_ACCOUNT of the old VMA (undone in 6.18)", false, 6, 18, { { 0 } } },
	[R_X6_DROPPABLE]     = { R_X6_DROPPABLE, "X6", "9651fcedf7b9", 6, 11,
		"MAP_DROPPABLE: private anonymous, VM_DROPPABLE|VM_WIPEONFORK|VM_DONTDUMP|VM_NORESERVE", false, 0, 0, { { 0 } } },
};

/* 6.1 and 6.12 stand for the Debian kernels `make kernels` boots (6.1.192,
 * 6.12.117), 6.18 for the host the release rules were checked on (6.18.44) */
static const struct sim_profile profiles[] = {
	{ "6.1", 6, 1, false, 0, 192 }, { "6.6", 6, 6, false, 0, 0 }, { "6.8", 6, 8, false, 0, 0 },
	{ "6.12", 6, 12, false, 0, 117 }, { "6.13", 6, 13, false, 0, 0 }, { "6.16", 6, 16, false, 0, 0 },
	{ "6.18", 6, 18, false, 0, 44 },
};
#define NPROFILES (sizeof profiles / sizeof profiles[0])

static bool at_least(const struct sim_profile *p, int major, int minor)
{
	return p->major > major || (p->major == major && p->minor >= minor);
}

bool sim_has(const struct sim_profile *p, int rule)
{
	const struct sim_rule *r = &sim_rules[rule];
	if (r->by_probe && p->probes)
		return p->probed & (1u << rule);
	for (size_t i = 0; i < sizeof r->backports / sizeof r->backports[0]; i++)
		if (r->backports[i].major && p->major == r->backports[i].major &&
		    p->minor == r->backports[i].minor && p->sub >= r->backports[i].sub)
			return true;
	return at_least(p, r->major, r->minor) && !(r->until_major && at_least(p, r->until_major, r->until_minor));
}

const char *sim_rule_cite(int rule, char *buf, size_t n)
{
	const struct sim_rule *r = &sim_rules[rule];
	if (r->by_probe)
		snprintf(buf, n, "%s %s, since %d.%d; host: probed", r->tag, r->commit, r->major, r->minor);
	else
		snprintf(buf, n, "%d.%d %s", r->major, r->minor, r->commit);
	return buf;
}

/* the newest profile not newer than major.minor; NULL if older than all */
static const struct sim_profile *at_most(int major, int minor)
{
	const struct sim_profile *best = NULL;

	for (size_t i = 0; i < NPROFILES; i++)
		if (profiles[i].major < major ||
		    (profiles[i].major == major && profiles[i].minor <= minor))
			best = &profiles[i];
	return best;
}

/* host: the release profile for uname -r, with each by_probe rule on or
 * off as this kernel shows it; decided once per process */
static struct sim_profile host;
static bool host_ok;
static char host_probed[64];
static pthread_once_t host_once = PTHREAD_ONCE_INIT;

static void host_init(void)
{
	const struct sim_profile *base;
	int major, minor, sub = 0;
	struct utsname u;

	if (uname(&u) != 0 || sscanf(u.release, "%d.%d.%d", &major, &minor, &sub) < 2 ||
	    !(base = at_most(major, minor)))
		return;
	host = *base;
	host.sub = base->major == major && base->minor == minor ? sub : 0;
	host.probes = true;
	host.probed = sim_host_probe();
	for (int i = 0; i < R_COUNT; i++)
		if (host.probed & (1u << i)) {
			size_t l = strlen(host_probed);
			snprintf(host_probed + l, sizeof host_probed - l, "%s%s", l ? "," : "", sim_rules[i].tag);
		}
	host_ok = true;
}

const struct sim_profile *sim_profile_find(const char *version)
{
	if (!version)
		return NULL;
	if (strcmp(version, "host") == 0) {
		pthread_once(&host_once, host_init);
		return host_ok ? &host : NULL;
	}
	for (size_t i = 0; i < NPROFILES; i++)
		if (strcmp(version, profiles[i].name) == 0)
			return &profiles[i];
	return NULL;
}

const char *sim_profile_name(const struct sim_profile *p)
{
	return p ? p->name : "?";
}

const char *sim_profile_probed(const struct sim_profile *p)
{
	return p == &host ? host_probed : "";
}

const char *sim_profile_names(void)
{
	return "6.1,6.6,6.8,6.12,6.13,6.16,6.18,host";
}
