/* calib.c - what each unit of the modelled cost takes on some machine:
 * vmreplay.model.cost_ns = the sum over SIM_COSTS of count x ns per unit
 * (`calls` carries the fixed per-call cost).  `vmreplay --calibrate OUT`
 * fits them on the running kernel and writes the file this reads; the
 * shipped default (replay/sim/calibration.txt, built in) names the machine
 * it came from.  docs/kernel-profiles.md ("Modelled time") says how. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/sim/sim_int.h"

static const char shipped[] =
#include "calib_default.inc"
	;

static int unit_index(const char *name)
{
	for (int i = 0; i < SIM_COST_COUNT; i++)
		if (strcmp(sim_cost_name(i), name) == 0)
			return i;
	return -1;
}

/* "key value" lines; '#' starts a comment line */
int sim_calib_parse(const char *text, struct sim_calib *out, char *why, size_t n)
{
	int line = 0;

	memset(out, 0, sizeof *out);
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		char key[32], name[32], rest[200];
		double v;
		int k;
		size_t len = strcspn(p, "\n");

		line++;
		if (len >= sizeof rest) {
			snprintf(why, n, "line %d: too long", line);
			return -1;
		}
		memcpy(rest, p, len);
		rest[len] = 0;
		if (!rest[0] || rest[0] == '#')
			continue;
		if (sscanf(rest, "%31s", key) != 1)
			continue;
		const char *val = rest + strlen(key);
		val += strspn(val, " \t");
		if (strcmp(key, "machine") == 0)
			snprintf(out->machine, sizeof out->machine, "%s", val);
		else if (strcmp(key, "kernel") == 0)
			snprintf(out->kernel, sizeof out->kernel, "%s", val);
		else if (strcmp(key, "date") == 0)
			snprintf(out->date, sizeof out->date, "%s", val);
		else if (strcmp(key, "unit") == 0) {
			char end[2];
			if (sscanf(val, "%31s %lf %1s", name, &v, end) != 2 || !(v >= 0 && v < 1e12)) {
				snprintf(why, n, "line %d: expected 'unit NAME NS' with NS >= 0", line);
				return -1;
			}
			if ((k = unit_index(name)) < 0) {
				snprintf(why, n, "line %d: no unit '%s' (vmreplay.model.<unit>)", line, name);
				return -1;
			}
			out->unit_ns[k] = v;
			out->have |= 1ull << k;
		} else if (strcmp(key, "fit") != 0) {   /* fit lines: how good the fit was, for people */
			snprintf(why, n, "line %d: unknown key '%s'", line, key);
			return -1;
		}
	}
	if (!out->have) {
		snprintf(why, n, "no 'unit' line");
		return -1;
	}
	return 0;
}

int sim_calib_read(const char *path, struct sim_calib *out, char *why, size_t n)
{
	FILE *f = fopen(path, "re");
	char *buf;
	long sz;
	int r;

	if (!f) {
		snprintf(why, n, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (sz = ftell(f)) < 0 || sz > (1 << 20) || fseek(f, 0, SEEK_SET) != 0 ||
	    !(buf = malloc((size_t)sz + 1))) {
		snprintf(why, n, "%s: not a calibration file (unreadable or over 1 MiB)", path);
		fclose(f);
		return -1;
	}
	buf[fread(buf, 1, (size_t)sz, f)] = 0;
	fclose(f);
	if (strlen(buf) != (size_t)sz) {
		snprintf(why, n, "%s: not a text file", path);
		free(buf);
		return -1;
	}
	char w[160];
	if ((r = sim_calib_parse(buf, out, w, sizeof w)) < 0)
		snprintf(why, n, "%s: %s", path, w);
	free(buf);
	return r;
}

static struct sim_calib def;
static pthread_once_t def_once = PTHREAD_ONCE_INIT;

static void def_init(void)
{
	char why[160];
	if (sim_calib_parse(shipped, &def, why, sizeof why) < 0)
		memset(&def, 0, sizeof def);   /* tests/sim/calib.t checks it parses */
}

const struct sim_calib *sim_calib_default(void)
{
	pthread_once(&def_once, def_init);
	return &def;
}

int sim_calib_write(FILE *f, const struct sim_calib *c)
{
	fprintf(f, "# vmrec calibration: ns per unit of vmreplay.model.* (vmreplay --calibrate;\n"
	           "# docs/kernel-profiles.md, \"Modelled time\").  calls: the fixed per-call cost.\n");
	fprintf(f, "machine %s\nkernel %s\ndate %s\n", c->machine, c->kernel, c->date);
	for (int i = 0; i < SIM_COST_COUNT; i++)
		if (c->have & (1ull << i))
			fprintf(f, "unit %-11s %.2f\n", sim_cost_name(i), c->unit_ns[i]);
	return ferror(f) ? -1 : 0;
}

double sim_cost_ns(const struct sim_cost *c, const struct sim_calib *k)
{
	double ns = 0;

	for (int i = 0; i < SIM_COST_COUNT; i++)
		ns += (double)sim_cost_value(c, i) * k->unit_ns[i];
	return ns;
}
