/* fuzz_replay.c - libFuzzer harness for the replay engine: any bytes as a
 * trace, replayed in the simulator (vmreplay --target sim, every option
 * that changes the engine's path: --per-event, --loop, --threads,
 * --placement kernel) give results or one line and status 1 or 2: never a
 * crash, a hang or a leak.  Built by `make fuzz` with vmreplay's own
 * objects (its main as vmreplay_main); tests/replay/fuzz_corpus_test.c
 * replays the kept corpus (tests/replay/fuzz/corpus) in make check. */
#include "tests/fuzz/fuzz.h"

int vmreplay_main(int argc, char **argv);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const kernels[] = { "6.1", "6.8", "host", "6.12" };
	char t[4200], json[4200];
	snprintf(t, sizeof(t), "%s", fz_path("t.lz4"));
	snprintf(json, sizeof(json), "%s", fz_path("r.json"));
	fz_write(t, data, size);
	char *serial[] = { "vmreplay", "-q", "--target", "sim", "--kernel", (char *)kernels[size % 4],
	                   "--per-event", "--loop", "2", "--json", json, t, NULL };
	char *threads[] = { "vmreplay", "-q", "--target", "sim", "--kernel", "6.1", "--threads",
	                    "--placement", "kernel", t, NULL };
	int st = fz_run(vmreplay_main, serial);
	if (st < 0 || st > 2)
		abort();
	st = fz_run(vmreplay_main, threads);
	if (st < 0 || st > 2)
		abort();
	return 0;
}
