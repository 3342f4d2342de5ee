/* vmreport_lkp.c - results files as lkp-tests stats records (--format lkp). */
#include <math.h>
#include <string.h>

#include "analysis/vmreport_compare.h"
#include "analysis/vmreport_lkp.h"

int rep_lkp_prefix_check(const char *s)
{
	if (!*s)
		return -1;
	for (; *s; s++)
		if (*s == ':' || *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			return -1;
	return 0;
}

/* dump-stat reads a value with a '.' as a float and any other as an
 * integer, so no exponent: a whole number as one, else six decimals. */
static void value(FILE *f, double v)
{
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.6f", v);
}

/* Timings a report would not compare: an emulated guest's, and the
 * simulator's (its model's own time, not a kernel's). */
static bool left_out(const struct rep_results *r, const char *name)
{
	return (r->sim || rep_emulated(r)) && rep_metric_kind(name) == REP_KIND_TIMING;
}

static void header(FILE *f, const struct rep_results *r, const char *prefix)
{
	fprintf(f, "# vmreplay results %s%s%s: trace %s, %s %s%s%s%s, %zu run%s\n", r->path,
		prefix ? " as " : "", prefix ? prefix : "", r->trace ? r->trace : "(not named)",
		r->sim ? "simulator profile" : "kernel", r->kernel, r->vm ? " in a " : "",
		r->vm ? r->vm : "", r->vm ? " guest" : "", r->runs, r->runs == 1 ? "" : "s");
	if (r->incomplete)
		fprintf(f, "# incomplete: %s\n",
			r->incomplete_reason ? r->incomplete_reason : "the trace was cut short");
	if (rep_emulated(r))
		fputs("# timings left out: an emulated guest's compare with nothing\n", f);
	else if (r->sim)
		fputs("# timings left out: the simulator's time is its own, not a kernel's\n", f);
	if (r->reproduce)
		fprintf(f, "# reproduce: %s\n", r->reproduce);
}

void rep_write_lkp(FILE *f, const struct rep_results *in, const char *const *prefixes, size_t n)
{
	static const char own[] = "vmreplay.";
	size_t runs = 0;
	for (size_t i = 0; i < n; i++) {
		header(f, &in[i], prefixes ? prefixes[i] : NULL);
		for (size_t k = 0; k < in[i].nmetrics; k++)
			if (in[i].metrics[k].n > runs)
				runs = in[i].metrics[k].n;
	}
	for (size_t run = 0; run < runs; run++) {
		for (size_t i = 0; i < n; i++) {
			const struct rep_results *r = &in[i];
			for (size_t k = 0; k < r->nmetrics; k++) {
				const struct rep_metric *m = &r->metrics[k];
				if (m->n <= run || left_out(r, m->name))
					continue;
				if (rep_lkp_prefix_check(m->name)) {	/* dump-stat would stop at it */
					if (!run)
						fprintf(f, "# left out: a name LKP cannot take: %s\n", m->name);
					continue;
				}
				const char *name = m->name;
				if (!strncmp(name, own, sizeof(own) - 1))
					name += sizeof(own) - 1;
				if (prefixes)
					fprintf(f, "%s.", prefixes[i]);
				fprintf(f, "%s: ", name);
				value(f, m->v[run]);
				fputc('\n', f);
			}
		}
	}
}
