/* results_test.c - vmtrace top's reader of per_event outcomes. */
#include <stdlib.h>
#include <unistd.h>
#include "analysis/vmtrace_top_results.c"
#include "tests/tap.h"

static char path[] = "/tmp/vmrec-results-XXXXXX";

static int load(const char *json, struct outcome_set *set, char *err, size_t len)
{
	FILE *f = fopen(path, "w");

	fputs(json, f);
	fclose(f);
	return outcome_set_load(set, path, "new", err, len);
}

int main(void)
{
	struct outcome_set set;
	char err[256];
	int fd = mkstemp(path);

	close(fd);
	is_int(load("{\"backend\": {\"x\": [1, {\"s\": \"a\\\"]}\"}]},\n"
		    " \"per_event\": [{\"i\": 0, \"outcome\": \"new\"},"
		    " {\"outcome\": \"split\", \"i\": 1},"
		    " {\"i\": 70000, \"op\": \"mmap\", \"outcome\": \"new\", \"errno\": null, \"v\": -1.5e3},"
		    " {\"i\": 2, \"outcome\": \"new_ish\"}]}", &set, err, sizeof(err)), 0,
	       "a results file with nested values before per_event loads");
	is_int(set.entries, 4, "four entries read");
	ok(outcome_set_has(&set, 0) && outcome_set_has(&set, 70000), "events 0 and 70000 are new");
	ok(!outcome_set_has(&set, 1) && !outcome_set_has(&set, 2) && !outcome_set_has(&set, 3),
	   "split, new_ish and absent events are not");
	ok(!outcome_set_has(&set, 1u << 30), "far beyond the last index is not");
	outcome_set_free(&set);

	is_int(load("{\"per_event\": []}", &set, err, sizeof(err)), 0, "an empty array is fine");
	is_int(set.entries, 0, "with no entries");
	outcome_set_free(&set);

	is_int(load("{\"results\": 1}", &set, err, sizeof(err)), -1, "no per_event: an error");
	ok(strstr(err, ": no per_event array") != NULL, "saying so: %s", err);
	is_int(load("{\"per_event\": [{\"i\": 0}, {\"outcome\": \"new\"}]}", &set, err, sizeof(err)),
	       -1, "an entry without i: an error");
	ok(strstr(err, "per_event entry 1 does not parse") != NULL, "naming the entry: %s", err);
	is_int(load("{\"per_event\": [{\"i\": 0}", &set, err, sizeof(err)), -1,
	       "a cut-off file: an error");
	unlink(path);
	is_int(outcome_set_load(&set, path, "new", err, sizeof(err)), -1, "a missing file: an error");
	ok(strstr(err, "No such file") != NULL, "with errno's words: %s", err);
	return done_testing();
}
