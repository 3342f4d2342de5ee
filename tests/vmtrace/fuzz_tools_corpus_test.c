/* The kept corpus of tests/vmtrace/fuzz/fuzz_tools.c, replayed through it without libFuzzer
 * (tests/fuzz/corpus.h): deterministic, part of make check. */
#include "tests/vmtrace/fuzz/fuzz_tools.c"
#include "tests/fuzz/corpus.h"

int main(void)
{
	return fuzz_corpus_main("tests/vmtrace/fuzz/tools-corpus", 3);
}
