/* The kept corpus of tests/trace/fuzz/fuzz_store.c, replayed through it without libFuzzer
 * (tests/fuzz/corpus.h): deterministic, part of make check. */
#include "tests/trace/fuzz/fuzz_store.c"
#include "tests/fuzz/corpus.h"

int main(void)
{
	return fuzz_corpus_main("tests/trace/fuzz/store-corpus", 3);
}
