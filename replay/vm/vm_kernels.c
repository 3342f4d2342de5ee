/* vm_kernels.c - resolve a KERNEL argument of --vm to a vmlinuz. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "replay/vm/vm_kernels.h"

const char *vm_exe_dir(void)
{
	static char dir[PATH_MAX];
	ssize_t n;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", dir, sizeof dir - 1);
	if (n <= 0) {
		strcpy(dir, ".");
		return dir;
	}
	dir[n] = 0;
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir)
		*slash = 0;
	return dir;
}

/* The parent of the directory vmreplay is in: build/ or PREFIX/ (vmrec-kernels
 * computes the same). */
const char *vm_kernel_store(void)
{
	static char store[PATH_MAX + 16];
	const char *env = getenv("VMREC_KERNELS");
	const char *dir = vm_exe_dir(), *slash = strrchr(dir, '/');

	if (env && *env)
		return env;
	if (!slash || !strcmp(dir, "."))
		snprintf(store, sizeof store, "%s/../kernels", dir);
	else
		snprintf(store, sizeof store, "%.*s/kernels", (int)(slash - dir), dir);
	return store;
}

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* "6.1" names "6.1.0-57-cloud-amd64" but not "6.12.117+deb12-...". */
static int release_matches(const char *spec, const char *release)
{
	size_t n = strlen(spec);

	if (strncmp(spec, release, n))
		return 0;
	return release[n] == 0 || strchr(".-+", release[n]) != NULL;
}

int vm_kernel_resolve(const char *spec, char *path, size_t len, char *err,
                      size_t errlen)
{
	const char *store = vm_kernel_store();
	char best[NAME_MAX + 1] = "";
	char candidate[PATH_MAX];

	if (strchr(spec, '/') || is_file(spec)) {
		if (!is_file(spec)) {
			snprintf(err, errlen, "%s: no such kernel image", spec);
			return -1;
		}
		snprintf(path, len, "%s", spec);
		return 0;
	}
	DIR *d = opendir(store);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !release_matches(spec, de->d_name))
			continue;
		snprintf(candidate, sizeof candidate, "%s/%s/vmlinuz", store, de->d_name);
		if (is_file(candidate) && (!best[0] || strverscmp(de->d_name, best) > 0))
			snprintf(best, sizeof best, "%s", de->d_name);
	}
	if (d)
		closedir(d);
	if (!best[0]) {
		/* the one installed beside us fills our store */
		snprintf(candidate, sizeof candidate, "%s/vmrec-kernels", vm_exe_dir());
		snprintf(err, errlen, "kernel '%s': not a file and no release %s* in the "
		         "kernel store %s (fetch it with: %s %s)", spec, spec, store,
		         access(candidate, X_OK) ? "vmrec-kernels" : candidate, spec);
		return -1;
	}
	snprintf(path, len, "%s/%s/vmlinuz", store, best);
	return 0;
}
