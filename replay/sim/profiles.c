/* profiles.c - the kernel releases the simulator models.  The rules come
 * from rules.def (one row each); a profile is a release, and a rule applies
 * from its first release on.  docs/kernel-profiles.md says how sure we are
 * of each and how to add a release. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include "replay/sim/sim_int.h"

const struct sim_rule sim_rules[R_COUNT] = {
#define SIM_RULE(tag_, name, commit_, from_, until_, probe, bp1, bp2, text) \
	[R_##tag_##_##name] = { .tag = #tag_, .commit = commit_, .from = from_, .until = until_, \
	                        .by_probe = probe, .backports = { bp1, bp2 }, .what = text },
#include "replay/sim/rules.def"
#undef SIM_RULE
};

/* Every profile, oldest first: the only list of them.  A profile is named
 * for its mainline release; the kv is the release it stands for, so a
 * stable sublevel takes the backports up to it.  6.1 and 6.12 stand for
 * the Debian kernels `make kernels` boots (6.1.192, 6.12.117), 6.18 for
 * the host the release rules were checked on (6.18.44).  A release
 * candidate (SIM_KV_RC) is a profile of its own where a regression lived
 * only in candidates. */
static const struct sim_profile profiles[] = {
	{ .name = "6.1",  .kv = SIM_KV(6, 1, 192) },
	{ .name = "6.3",  .kv = SIM_KV(6, 3, 0) },
	{ .name = "6.4",  .kv = SIM_KV(6, 4, 0) },
	{ .name = "6.6",  .kv = SIM_KV(6, 6, 0) },
	{ .name = "6.7",  .kv = SIM_KV(6, 7, 0) },
	{ .name = "6.8",  .kv = SIM_KV(6, 8, 0) },
	{ .name = "6.9",  .kv = SIM_KV(6, 9, 0) },
	{ .name = "6.11", .kv = SIM_KV(6, 11, 0) },
	/* M1 without M2: the robot's aim9.brk_test -6% lived in -rc1 to -rc5 */
	{ .name = "6.12-rc1", .kv = SIM_KV_RC(6, 12, 1) },
	{ .name = "6.12", .kv = SIM_KV(6, 12, 117) },
	{ .name = "6.13", .kv = SIM_KV(6, 13, 0) },
	{ .name = "6.16", .kv = SIM_KV(6, 16, 0) },
	{ .name = "6.18", .kv = SIM_KV(6, 18, 44) },
};
#define NPROFILES (sizeof profiles / sizeof profiles[0])

/* same major.minor: a stable release of the same line */
static bool same_line(int a, int b)
{
	return a / SIM_KV_LINE == b / SIM_KV_LINE;
}

bool sim_has(const struct sim_profile *p, int rule)
{
	const struct sim_rule *r = &sim_rules[rule];
	if (r->by_probe && p->probes)
		return p->probed & (1u << rule);
	for (size_t i = 0; i < sizeof r->backports / sizeof r->backports[0]; i++)
		if (r->backports[i] && same_line(p->kv, r->backports[i]) && p->kv >= r->backports[i])
			return true;
	return p->kv >= r->from && !(r->until && p->kv >= r->until);
}

/* "6.8", "2.6.32", "6.12-rc1": the sublevel only when it is not 0 */
static const char *kv_str(int kv, char *buf, size_t n)
{
	if (SIM_KV_IS_RC(kv))
		snprintf(buf, n, "%d.%d-rc%d", SIM_KV_MAJOR(kv), SIM_KV_MINOR(kv), SIM_KV_RCN(kv));
	else if (SIM_KV_SUB(kv))
		snprintf(buf, n, "%d.%d.%d", SIM_KV_MAJOR(kv), SIM_KV_MINOR(kv), SIM_KV_SUB(kv));
	else
		snprintf(buf, n, "%d.%d", SIM_KV_MAJOR(kv), SIM_KV_MINOR(kv));
	return buf;
}

const char *sim_rule_cite(int rule, char *buf, size_t n)
{
	const struct sim_rule *r = &sim_rules[rule];
	char rel[24];

	snprintf(buf, n, "%s %s %s%s", kv_str(r->from, rel, sizeof rel), r->commit, r->tag,
	         r->by_probe ? "; host probes it" : "");
	return buf;
}

const char *sim_cite(struct sim_mm *mm, int rule, char *buf, size_t n)
{
	mm->cited |= 1u << rule;
	return sim_rule_cite(rule, buf, n);
}

int sim_rule_count(void)
{
	return R_COUNT;
}

const char *sim_rule_id(int i, const char **commit)
{
	if (i < 0 || i >= R_COUNT)
		return NULL;
	if (commit)
		*commit = sim_rules[i].commit;
	return sim_rules[i].tag;
}

/* the newest profile whose line is not newer than kv's; NULL if older than all */
static const struct sim_profile *at_most(int kv)
{
	const struct sim_profile *best = NULL;

	for (size_t i = 0; i < NPROFILES; i++)
		if (profiles[i].kv / SIM_KV_LINE <= kv / SIM_KV_LINE && !SIM_KV_IS_RC(profiles[i].kv))
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
	int major, minor, sub = 0, rc = 0;
	struct utsname u;
	const char *r;

	if (uname(&u) != 0 || sscanf(u.release, "%d.%d.%d", &major, &minor, &sub) < 2 ||
	    !(base = at_most(SIM_KV(major, minor, 0))))
		return;
	if ((r = strstr(u.release, "-rc")) && sscanf(r + 3, "%d", &rc) == 1 && (rc < 1 || rc >= SIM_KV_REL))
		rc = 0;
	host = *base;
	/* its own sublevel on the same line, else the line's .0 */
	if (!same_line(base->kv, SIM_KV(major, minor, 0)))
		host.kv = base->kv / SIM_KV_LINE * SIM_KV_LINE + SIM_KV_REL;
	else
		host.kv = rc ? SIM_KV_RC(major, minor, rc) : SIM_KV(major, minor, sub);
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

/* "6.1,6.6,...,host", built once from profiles[] */
static char names[NPROFILES * 12 + 8];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void names_init(void)
{
	size_t l = 0;

	for (size_t i = 0; i < NPROFILES; i++)
		l += (size_t)snprintf(names + l, sizeof names - l, "%s,", profiles[i].name);
	snprintf(names + l, sizeof names - l, "host");
}

const char *sim_profile_names(void)
{
	pthread_once(&names_once, names_init);
	return names;
}

size_t sim_profile_count(void)
{
	return NPROFILES;
}

const struct sim_profile *sim_profile_at(size_t i)
{
	return i < NPROFILES ? &profiles[i] : NULL;
}

/* the releases a rule is in: "6.16 until 6.18", "7.3, stable 6.1.191, 6.12.114" */
static void rule_releases(const struct sim_rule *r, char *buf, size_t n)
{
	char a[24], b[24];
	size_t l = (size_t)snprintf(buf, n, "%s", kv_str(r->from, a, sizeof a));

	if (r->until)
		l += (size_t)snprintf(buf + l, n - l, " until %s", kv_str(r->until, a, sizeof a));
	if (r->backports[0])
		l += (size_t)snprintf(buf + l, n - l, ", stable %s", kv_str(r->backports[0], a, sizeof a));
	if (r->backports[1])
		snprintf(buf + l, n - l, ", %s", kv_str(r->backports[1], b, sizeof b));
}

void sim_list_rules(FILE *f)
{
	char rel[96];

	for (int i = 0; i < R_COUNT; i++) {
		const struct sim_rule *r = &sim_rules[i];
		rule_releases(r, rel, sizeof rel);
		fprintf(f, "%s\t%s\t%s\t%s\t%s\n", r->tag, rel, r->commit, r->by_probe ? "probed" : "-", r->what);
	}
}

static void list_profile(FILE *f, const struct sim_profile *p, const char *name)
{
	char rel[24];
	const char *sep = "";

	fprintf(f, "%s\t%s\t", name, kv_str(p->kv, rel, sizeof rel));
	for (int i = 0; i < R_COUNT; i++)
		if (sim_has(p, i)) {
			fprintf(f, "%s%s", sep, sim_rules[i].tag);
			sep = " ";
		}
	fputc('\n', f);
}

void sim_list_profiles(FILE *f)
{
	const struct sim_profile *h;

	for (size_t i = 0; i < NPROFILES; i++)
		list_profile(f, &profiles[i], profiles[i].name);
	if ((h = sim_profile_find("host")))
		list_profile(f, h, "host");
	else
		fputs("host\t-\tno profile for this kernel's release\n", f);
}
