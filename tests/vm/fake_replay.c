/* fake_replay.c - a stand-in for vmreplay inside the guest (linked
 * statically), to test the boot and the transport on their own.
 *
 *   fake-replay [vmreplay options] [--json OUT] TRACE
 *
 * It takes vmreplay's options, as vmreplay --vm checks them, and ignores
 * all but --json; what it does comes from TRACE, whose first line may be
 * "fake-replay exit N bytes N" (else exit 0, bytes 0).
 * Prints one summary line; with --json writes the kernel release, the size
 * of TRACE as the guest saw it, and a probe of the placement change the
 * docs/kernel-observed.md lists (2 MiB anonymous mmaps PMD-aligned from 6.7) and the THP
 * mode; bytes N adds
 * N bytes of a known pattern to the JSON to exercise a large transfer.
 * A TRACE whose file name starts with "crash" makes it abort. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#define PMD (2ul << 20)

/* How many of 8 anonymous 2 MiB mmaps come back PMD-aligned.  A page is
 * mapped between them: a kernel that does not align places each one a page
 * lower than the last, so at most one can be aligned by chance (without
 * the page, all 8 were when the first was: 1 run in 512). */
static int pmd_aligned_of_8(void)
{
	int n = 0;

	for (int i = 0; i < 8; i++) {
		void *p = mmap(NULL, PMD, PROT_READ | PROT_WRITE,
		               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED && (unsigned long)p % PMD == 0)
			n++;
		mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	}
	return n;
}

/* The selected word of the THP mode, "?" if unknown. */
static const char *thp_mode(char *buf, size_t len)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char *open, *close;

	if (!f || !fgets(buf, (int)len, f) || !(open = strchr(buf, '[')) ||
	    !(close = strchr(open, ']'))) {
		if (f)
			fclose(f);
		return "?";
	}
	fclose(f);
	*close = 0;
	return open + 1;
}

int main(int argc, char **argv)
{
	const char *json = NULL, *trace = argc > 1 ? argv[argc - 1] : "";
	long bytes = 0;
	int code = 0;
	struct utsname u;
	struct stat st;
	char thp[128];

	for (int i = 1; i < argc - 1; i++)
		if (!strcmp(argv[i], "--json") && i + 1 < argc - 1)
			json = argv[++i];
	FILE *tf = fopen(trace, "r");
	char line[128] = "";
	if (tf) {
		if (fgets(line, sizeof line, tf))
			sscanf(line, "fake-replay exit %d bytes %ld", &code, &bytes);
		fclose(tf);
	}
	const char *base = strrchr(trace, '/');
	if (!strncmp(base ? base + 1 : trace, "crash", 5))
		abort();
	uname(&u);
	long size = stat(trace, &st) ? -1 : (long)st.st_size;
	int aligned = pmd_aligned_of_8();
	printf("fake-replay: %d args, trace %ld bytes\n", argc - 1, size);
	fprintf(stderr, "fake-replay: on stderr\n");
	if (json) {
		FILE *f = fopen(json, "w");
		if (!f)
			return 3;
		fprintf(f, "{\"kernel\": \"%s\", \"trace_bytes\": %ld, "
		        "\"pmd_aligned_2m_of_8\": %d, \"thp\": \"%s\", \"pad\": \"", u.release, size,
		        aligned, thp_mode(thp, sizeof thp));
		for (long i = 0; i < bytes; i++)
			putc('a' + (int)(i % 26), f);
		fprintf(f, "\"}\n");
		fclose(f);
	}
	return code;
}
