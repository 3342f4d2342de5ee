/* kernels_test.c - KERNEL arguments resolved against a kernel store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/tap.h"
#include "replay/vm/vm_kernels.h"

static char store[64];

static void add(const char *release)
{
	char path[256];

	snprintf(path, sizeof path, "%s/%s", store, release);
	mkdir(path, 0755);
	strcat(path, "/vmlinuz");
	fclose(fopen(path, "w"));
}

static void resolves(const char *spec, const char *want_release)
{
	char path[512], want[512], err[512];

	snprintf(want, sizeof want, "%s/%s/vmlinuz", store, want_release);
	int r = vm_kernel_resolve(spec, path, sizeof path, err, sizeof err);
	ok(r == 0 && !strcmp(path, want), "%s -> %s", spec, want_release);
	if (r)
		diag("%s", err);
}

int main(void)
{
	char path[512], err[512], want[512];

	snprintf(store, sizeof store, "/tmp/vmrec-store.XXXXXX");
	if (!mkdtemp(store))
		return 1;
	setenv("VMREC_KERNELS", store, 1);
	add("6.1.0-9-cloud-amd64");
	add("6.1.0-57-cloud-amd64");
	add("6.12.9+deb12-cloud-amd64");
	add("6.12.117+deb12-cloud-amd64");
	add("6.10.3");
	mkdir(strcat(strcpy(path, store), "/6.1.0-99-empty"), 0755);

	resolves("6.1", "6.1.0-57-cloud-amd64");
	resolves("6.12", "6.12.117+deb12-cloud-amd64");
	resolves("6.1.0-9-cloud-amd64", "6.1.0-9-cloud-amd64");
	resolves("6.10", "6.10.3");

	is_int(vm_kernel_resolve("5.10", path, sizeof path, err, sizeof err), -1,
	       "a release not in the store");
	snprintf(want, sizeof want, "kernel '5.10': not a file and no release 5.10* in the "
	         "kernel store %s (fetch it with: vmrec-kernels 5.10)", store);
	is_str(err, want, "its message names the command that fetches it");

	snprintf(want, sizeof want, "%s/6.10.3/vmlinuz", store);
	is_int(vm_kernel_resolve(want, path, sizeof path, err, sizeof err), 0, "a path");
	is_str(path, want, "a path is used as it is");
	is_int(vm_kernel_resolve("/no/such/vmlinuz", path, sizeof path, err, sizeof err), -1,
	       "a missing path");
	is_str(err, "/no/such/vmlinuz: no such kernel image", "its message");

	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", store);
	return system(cmd) | done_testing();
}
