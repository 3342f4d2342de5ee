/* The kept corpus of tests/replay/fuzz/fuzz_replay.c, replayed through it without libFuzzer
 * (tests/fuzz/corpus.h): deterministic, part of make check. */
#include "tests/replay/fuzz/fuzz_replay.c"
#include "tests/fuzz/corpus.h"

int main(void)
{
	return fuzz_corpus_main("tests/replay/fuzz/corpus", 3);
}
