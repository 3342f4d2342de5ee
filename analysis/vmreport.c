/* vmreport - compare vmreplay results files as LKP compares kernels.
 *
 *   vmreport [--all] [--ranges] [--explain[=N]] [--stacks[=TRACE] | --no-stacks] [--trace TRACE]
 *            [--format FMT] [-o FILE]
 *            [--label A,B,...] [--any-trace | --by-trace] BASE.json OTHER.json...
 *   vmreport --format lkp [--label A,B,...] [-o FILE] RESULTS.json...
 *
 * Exit status: 0 report written, 1 a results file could not be used or the
 * output not written, 2 usage error. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/vmreport_compare.h"
#include "analysis/vmreport_html.h"
#include "analysis/vmreport_json.h"
#include "analysis/vmreport_lkp.h"
#include "analysis/vmreport_text.h"
#include "lib/output.h"

#define DEFAULT_EXPLAIN 5
#define MAX_EXPLAIN 100000

enum format { FMT_TEXT, FMT_MARKDOWN, FMT_JSON, FMT_HTML, FMT_LKP };

static const char *const format_names[] = {
	[FMT_TEXT] = "text", [FMT_MARKDOWN] = "markdown", [FMT_JSON] = "json", [FMT_HTML] = "html",
	[FMT_LKP] = "lkp",
};

struct args {
	struct rep_options opt;
	enum format format;
	const char *output;
	char *label_buf;
	const char **labels;
	size_t nlabels;
	bool help;
	bool by_trace;
};

/* The inputs compared in one table: all of them, or those of one trace. */
struct group {
	const char *trace;
	struct rep_results *in;      /* copies; the originals own the memory */
	const char **labels;
	size_t n;
	struct rep_options opt;
	struct rep_table table;
	bool built;
};

static void usage(FILE *f)
{
	fputs("usage: vmreport [options] BASE.json OTHER.json...\n"
	      "Compare vmreplay --json results; every column against the first.\n"
	      "  -a, --all             show every metric, not only significant and headline ones\n"
	      "  -r, --ranges          print min\u2013max of the runs under each value\n"
	      "  -e, --explain[=N]     the first N (5) events where outcome or VMA count differ\n"
	      "      --stacks[=TRACE]  with --explain: each event's recorded call stack (the\n"
	      "                        default when the trace has them), read from TRACE\n"
	      "      --no-stacks       with --explain: no stacks, the trace is not read\n"
	      "      --trace TRACE     the trace of the results, when the path they name is not\n"
	      "                        here (results of vmreplay --vm name the guest's)\n"
	      "  -f, --format FMT      text (default), markdown, json or html; lkp: no\n"
	      "                        comparison, the metrics of RESULTS.json... as the\n"
	      "                        stats records of an lkp-tests parse program\n"
	      "  -o, --output FILE     write there instead of standard output\n"
	      "  -l, --label A,B,...   column labels (default: kernel release or sim:PROFILE)\n"
	      "      --any-trace       compare results of different traces anyway\n"
	      "      --by-trace        one comparison per trace, the first file of each its base\n"
	      "  -h, --help            this text\n"
	      "Colour: text on a terminal, unless NO_COLOR is set.\n", f);
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("vmreport: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs(" (vmreport --help)\n", stderr);
	return 2;
}

static int split_labels(struct args *a, const char *list)
{
	free(a->label_buf);
	free(a->labels);
	a->label_buf = strdup(list);
	a->labels = calloc(strlen(list) + 2, sizeof(*a->labels));
	if (!a->label_buf || !a->labels)
		return -1;
	a->nlabels = 0;
	for (char *s = a->label_buf, *tok; (tok = strsep(&s, ","));)
		a->labels[a->nlabels++] = tok;
	return 0;
}

/* --format lkp prints each file's metrics, it compares nothing: the
 * options of a comparison are refused, and several files need --label,
 * whose labels prefix their metrics' names. */
static int check_lkp_args(struct args *a, size_t nin)
{
	const struct rep_options *o = &a->opt;
	if (!nin)
		return usage_error("%s", "--format lkp: no results files");
	if (o->all || o->ranges || o->explain || o->any_trace || a->by_trace ||
	    o->stacks != REP_STACKS_AUTO || o->trace)
		return usage_error("%s", "--format lkp compares nothing: it takes only --label and -o");
	if (!a->labels && nin > 1)
		return usage_error("%s", "--format lkp with several results files needs --label: "
				   "each label prefixes its file's metrics");
	if (a->labels && a->nlabels != nin) {
		fprintf(stderr, "vmreport: --label gives %zu label%s for %zu results files\n",
			a->nlabels, a->nlabels == 1 ? "" : "s", nin);
		return 2;
	}
	for (size_t i = 0; a->labels && i < nin; i++)
		if (rep_lkp_prefix_check(a->labels[i]))
			return usage_error("--format lkp: label \"%s\" cannot prefix a stat name "
					   "(no blank, no ':', not empty)", a->labels[i]);
	return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	enum { OPT_ANY_TRACE = 256, OPT_BY_TRACE, OPT_STACKS, OPT_NO_STACKS, OPT_TRACE };
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "ranges", no_argument, NULL, 'r' },
		{ "explain", optional_argument, NULL, 'e' },
		{ "stacks", optional_argument, NULL, OPT_STACKS },
		{ "no-stacks", no_argument, NULL, OPT_NO_STACKS },
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "label", required_argument, NULL, 'l' },
		{ "any-trace", no_argument, NULL, OPT_ANY_TRACE },
		{ "by-trace", no_argument, NULL, OPT_BY_TRACE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":are::f:o:l:h", longopts, NULL)) != -1) {
		char *end;
		long n;
		size_t k;
		switch (c) {
		case 'a': a->opt.all = true; break;
		case 'r': a->opt.ranges = true; break;
		case OPT_ANY_TRACE: a->opt.any_trace = true; break;
		case OPT_BY_TRACE: a->by_trace = true; break;
		case OPT_STACKS:
			if (optarg && !optarg[0])
				return usage_error("%s", "--stacks=: expected a trace file");
			a->opt.stacks = REP_STACKS_ON;
			a->opt.stacks_trace = optarg;
			break;
		case OPT_NO_STACKS: a->opt.stacks = REP_STACKS_OFF; a->opt.stacks_trace = NULL; break;
		case OPT_TRACE:
			if (!optarg[0])
				return usage_error("%s", "--trace=: expected a trace file");
			a->opt.trace = optarg;
			break;
		case 'e':
			if (!optarg) {
				a->opt.explain = DEFAULT_EXPLAIN;
				break;
			}
			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || n < 1 || n > MAX_EXPLAIN)
				return usage_error("--explain=%s: expected a count from 1 to 100000", optarg);
			a->opt.explain = (int)n;
			break;
		case 'f':
			for (k = 0; k < sizeof(format_names) / sizeof(format_names[0]); k++)
				if (strcmp(optarg, format_names[k]) == 0)
					break;
			if (k == sizeof(format_names) / sizeof(format_names[0]))
				return usage_error("unknown format \"%s\" (text, markdown, json, html, lkp)", optarg);
			a->format = (enum format)k;
			break;
		case 'o': a->output = optarg; break;
		case 'l':
			if (split_labels(a, optarg))
				return usage_error("%s", "out of memory");
			break;
		case 'h': a->help = true; return 0;
		case ':': return usage_error("%s needs an argument", argv[optind - 1]);
		default: return usage_error("unknown option %s", argv[optind - 1]);
		}
	}
	size_t nin = (size_t)(argc - optind);
	if (a->format == FMT_LKP)
		return check_lkp_args(a, nin);
	if (nin < 2)
		return usage_error("%s", nin ? "one results file: give a base and at least one to compare"
				   : "no results files: give a base and at least one to compare");
	if (a->labels && a->nlabels != nin) {
		fprintf(stderr, "vmreport: --label gives %zu label%s for %zu results files\n",
			a->nlabels, a->nlabels == 1 ? "" : "s", nin);
		return 2;
	}
	if (a->by_trace && a->opt.any_trace)
		return usage_error("%s", "--by-trace and --any-trace exclude each other");
	a->opt.labels = a->labels;
	return 0;
}

static bool want_colour(const char *output, FILE *out)
{
	const char *nc = getenv("NO_COLOR");
	return !output && !(nc && nc[0]) && isatty(fileno(out));
}

/* The tables, or with --format lkp the inputs themselves. */
static int write_report(const struct args *a, const struct rep_table *const *tables, size_t n,
			const struct rep_results *in, size_t nin)
{
	FILE *out = stdout;
	struct output file;
	if (a->output && !(out = output_open(&file, "vmreport", a->output, VMT_OUTPUT_MODE_SHARED)))
		return 1;
	for (size_t k = 0; k < n && a->format != FMT_JSON && a->format != FMT_HTML && a->format != FMT_LKP; k++) {
		if (k)
			fputc('\n', out);
		if (a->format == FMT_TEXT)
			rep_write_text(out, tables[k], want_colour(a->output, out));
		else
			rep_write_markdown(out, tables[k]);
	}
	if (a->format == FMT_JSON)
		rep_write_json(out, tables, n, a->by_trace);
	if (a->format == FMT_HTML)
		rep_write_html(out, tables, n);
	if (a->format == FMT_LKP)
		rep_write_lkp(out, in, a->labels, nin);
	if (a->output)
		return output_close(&file) ? 1 : 0;
	int bad = ferror(out);
	if (fflush(out) || bad) {
		fprintf(stderr, "vmreport: standard output: write error: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

static bool same_trace(const char *x, const char *y)
{
	return x == y || (x && y && strcmp(x, y) == 0);
}

/* Splits the inputs into groups: one, or one per trace in order of first
 * appearance.  Returns the number of groups, 0 when out of memory. */
static size_t make_groups(const struct args *a, struct rep_results *in, size_t nin, struct group *g)
{
	size_t ng = 0;
	for (size_t i = 0; i < nin; i++) {
		const char *trace = a->by_trace ? rep_trace_name(&in[i]) : NULL;
		size_t k;
		for (k = 0; k < ng && !same_trace(g[k].trace, trace); k++)
			;
		if (k == ng) {
			g[k].trace = trace;
			g[k].in = calloc(nin, sizeof(*g[k].in));
			g[k].labels = calloc(nin, sizeof(*g[k].labels));
			g[k].opt = a->opt;
			g[k].opt.labels = a->labels ? g[k].labels : NULL;
			ng++;
			if (!g[k].in || !g[k].labels)
				return 0;
		}
		g[k].in[g[k].n] = in[i];
		g[k].labels[g[k].n++] = a->labels ? a->labels[i] : NULL;
	}
	return ng;
}

/* Builds a table for every group of two or more; the tables in T. */
static int build_tables(struct group *g, size_t ng, const struct rep_table **t, size_t *nt)
{
	*nt = 0;
	for (size_t k = 0; k < ng; k++) {
		if (g[k].n < 2) {
			fprintf(stderr, "vmreport: %s: the only results of trace %s: nothing to compare "
				"them with\n", g[k].in[0].path, g[k].trace ? g[k].trace : "(not named)");
			continue;
		}
		g[k].built = true;	/* a failed build is freed too */
		if (rep_table_build(&g[k].table, g[k].in, g[k].n, &g[k].opt))
			return 1;
		t[(*nt)++] = &g[k].table;
	}
	if (!*nt) {
		fprintf(stderr, "vmreport: no two results files of one trace to compare\n");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	int status = parse_args(argc, argv, &a);
	if (status || a.help) {
		if (a.help)
			usage(stdout);
		free(a.labels);
		free(a.label_buf);
		return status;
	}
	size_t nin = (size_t)(argc - optind), ng = 0, nt = 0;
	struct rep_results *in = calloc(nin, sizeof(*in));
	struct group *g = calloc(nin, sizeof(*g));
	const struct rep_table **t = calloc(nin, sizeof(*t));
	if (!in || !g || !t) {
		fprintf(stderr, "vmreport: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < nin; i++) {
		char err[256];
		/* the rows are read again only by --explain and the HTML plots */
		bool keep = a.opt.explain || a.format == FMT_HTML;
		if (rep_results_load(argv[optind + i], &in[i], keep, err, sizeof(err))) {
			fprintf(stderr, "vmreport: %s: %s\n", argv[optind + i], err);
			status = 1;
		}
	}
	if (!status && a.format != FMT_LKP && !(ng = make_groups(&a, in, nin, g))) {
		fprintf(stderr, "vmreport: out of memory\n");
		status = 1;
	}
	if (!status && a.format != FMT_LKP)
		status = build_tables(g, ng, t, &nt);
	if (!status)
		status = write_report(&a, t, nt, in, nin);
	for (size_t k = 0; k < nin; k++) {
		if (g[k].built)
			rep_table_free(&g[k].table);
		free(g[k].in);
		free(g[k].labels);
	}
	for (size_t i = 0; i < nin; i++)
		rep_results_free(&in[i]);
	free(t);
	free(g);
	free(in);
	free(a.labels);
	free(a.label_buf);
	return status;
}
