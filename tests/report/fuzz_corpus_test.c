/* The kept corpus of tests/report/fuzz/fuzz_results.c, replayed through it without libFuzzer
 * (tests/fuzz/corpus.h): deterministic, part of make check. */
#include "tests/report/fuzz/fuzz_results.c"
#include "tests/fuzz/corpus.h"

int main(void)
{
	return fuzz_corpus_main("tests/report/fuzz/corpus", 3);
}
