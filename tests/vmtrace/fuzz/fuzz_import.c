/* fuzz_import.c - libFuzzer harness for vmtrace import-strace: any bytes
 * as an strace log give a trace or one line and status 1, and a trace it
 * writes follows every trace rule (vmt_check_file): the importer never
 * makes a trace the tools would refuse.  Built by `make fuzz` with
 * vmtrace's own objects (its main as vmtrace_main);
 * tests/vmtrace/fuzz_import_corpus_test.c replays the kept corpus
 * (tests/vmtrace/fuzz/import-corpus) in make check. */
#include "tests/fuzz/fuzz.h"
#include "vmt.h"

int vmtrace_main(int argc, char **argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char log[4200], out[4200], msg[600];
	snprintf(log, sizeof(log), "%s", fz_path("s.log"));
	snprintf(out, sizeof(out), "%s", fz_path("s.lz4"));
	fz_write(log, data, size);
	unlink(out);
	char *argv[] = { "vmtrace", "import-strace", log, "-o", out, NULL };
	int st = fz_run(vmtrace_main, argv);
	if (st != 0 && st != 1)
		abort();
	if (st == 0 && vmt_check_file(out, msg, sizeof(msg)) != 0) {
		fprintf(stderr, "import-strace wrote a trace check refuses: %s\n", msg);
		abort();
	}
	return 0;
}
