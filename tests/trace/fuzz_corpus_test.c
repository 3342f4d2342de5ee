/* Replay the fuzz corpus (tests/trace/fuzz/corpus) through the libFuzzer
 * harness without libFuzzer: deterministic, part of make check. */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/tap.h"
#include "tests/trace/fuzz/fuzz_reader.c"

int main(void)
{
	const char *src = getenv("VMREC_SRC") ? getenv("VMREC_SRC") : ".";
	char dir[4096], path[8192];
	struct dirent *d;
	DIR *dp;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/tests/trace/fuzz/corpus", src);
	dp = opendir(dir);
	if (!dp) {   /* the corpus is part of the source: missing is a failure */
		ok(0, "the corpus is at %s", dir);
		return done_testing();
	}
	while ((d = readdir(dp))) {
		struct stat st;
		uint8_t *buf;
		int fd;
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0 || fstat(fd, &st) < 0)
			continue;
		buf = malloc((size_t)st.st_size + 1);
		if (read(fd, buf, (size_t)st.st_size) == st.st_size) {
			LLVMFuzzerTestOneInput(buf, (size_t)st.st_size);
			n++;
		}
		free(buf);
		close(fd);
	}
	closedir(dp);
	ok(n >= 5, "%d corpus inputs read in both orders, with and without checksums, without a crash", n);
	return done_testing();
}
