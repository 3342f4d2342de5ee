/* fuzz_tools.c - libFuzzer harness for what vmtrace reads a trace for:
 * any bytes as a trace through stats, stats --json, top (by events and
 * folded), dump -T -k and check give their output or one line and status
 * 1: never a crash, a hang, a leak or another status.  Built by
 * `make fuzz` with vmtrace's own objects (its main as vmtrace_main);
 * tests/vmtrace/fuzz_tools_corpus_test.c replays the kept corpus
 * (tests/vmtrace/fuzz/tools-corpus) in make check. */
#include "tests/fuzz/fuzz.h"

int vmtrace_main(int argc, char **argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char t[4200];
	snprintf(t, sizeof(t), "%s", fz_path("t.lz4"));
	fz_write(t, data, size);
	char *runs[][7] = {
		{ "vmtrace", "stats", t, NULL },
		{ "vmtrace", "stats", "--json", t, NULL },
		{ "vmtrace", "top", t, NULL },
		{ "vmtrace", "top", "--folded", "--depth", "3", t, NULL },
		{ "vmtrace", "dump", "-T", "-ttt", "-k", t, NULL },
		{ "vmtrace", "check", t, NULL },
	};
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		int st = fz_run(vmtrace_main, runs[i]);
		if (st != 0 && st != 1)
			abort();
	}
	return 0;
}
