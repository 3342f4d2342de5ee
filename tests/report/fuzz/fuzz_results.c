/* fuzz_results.c - libFuzzer harness for vmreport: any bytes as a results
 * file are refused in one line, or read and compared with themselves in
 * every format (--all --ranges --explain, text, markdown, JSON, HTML):
 * never a crash, a hang or a leak.  Built by `make fuzz` with vmreport's
 * own objects (its main as vmreport_main); tests/report/fuzz_corpus_test.c
 * replays the kept corpus (tests/report/fuzz/corpus) in make check. */
#include "tests/fuzz/fuzz.h"

int vmreport_main(int argc, char **argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const formats[] = { "text", "markdown", "json", "html" };
	char file[4200];
	snprintf(file, sizeof(file), "%s", fz_path("r.json"));
	fz_write(file, data, size);
	/* one format per input, chosen by its size: all are reached */
	char *argv[] = { "vmreport", "--any-trace", "--all", "--ranges", "--explain=4",
	                 "--no-stacks", "-f", (char *)formats[size % 4], file, file, NULL };
	int st = fz_run(vmreport_main, argv);
	if (st != 0 && st != 1)
		abort();   /* 2 is a usage error, which these arguments are not */
	return 0;
}
