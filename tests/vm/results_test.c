/* results_test.c - guest results marked "vm": "qemu-tcg", and their names. */
#include <stdlib.h>
#include <string.h>
#include "tests/tap.h"
#include "replay/vm/vm_results.h"

static char out[512];

static int marked(const char *json)
{
	FILE *f = fmemopen(out, sizeof out, "w");
	int r = vm_results_write(f, json, strlen(json), "6.12.117+deb12-cloud-amd64", NULL);
	fclose(f);
	return r;
}

static void line_is(const char *const *words, int n, const char *want, const char *what)
{
	char *got = vm_shell_line(words, n);
	is_str(got, want, "shell line: %s", what);
	free(got);
}

static void name_is(const char *out_arg, int t, int mk, int mt, const char *want)
{
	char *got = vm_results_name(out_arg, "6.1.0-57-cloud-amd64", t, mk, mt);
	is_str(got, want, "results name %s (kernels %d, traces %d)", out_arg, mk, mt);
	free(got);
}

int main(void)
{
	is_int(marked("{\"ops\": 3}\n"), 0, "object accepted");
	is_str(out, "{\n  \"vm\": \"qemu-tcg\",\n  \"vm_kernel\": \"6.12.117+deb12-cloud-amd64\",\n"
	       "  \"ops\": 3\n}\n", "vm members added first");
	is_int(marked("  { }"), 0, "empty object accepted");
	is_str(out, "{\n  \"vm\": \"qemu-tcg\",\n  \"vm_kernel\": \"6.12.117+deb12-cloud-amd64\"\n}\n",
	       "no trailing comma in an empty object");
	is_int(marked("{\n  \"x\": 0.125,\n  \"per_event\": [\n    {\"i\": 0, \"rule\": \"a}b\"}\n  ]\n}\n"),
	       0, "streamed rows accepted");
	is_str(out, "{\n  \"vm\": \"qemu-tcg\",\n  \"vm_kernel\": \"6.12.117+deb12-cloud-amd64\",\n"
	       "  \"x\": 0.125,\n  \"per_event\": [\n    {\"i\": 0, \"rule\": \"a}b\"}\n  ]\n}\n",
	       "the guest's members kept byte for byte");
	is_int(marked("[1]"), -1, "an array is refused");
	is_int(marked(""), -1, "nothing is refused");
	is_int(marked("{\"ops\": }"), -1, "an object that is not JSON is refused");
	is_int(marked("{\"ops\": 3} {"), -1, "bytes after the object are refused");
	is_int(marked("{\"per_event\": [{\"i\": 0}, {\"i\": }]}"), -1, "a row that is not JSON is refused");
	is_int(marked("{\"vm\": \"kvm\"}"), -1, "an object that names a VM already is refused");

	FILE *f = fmemopen(out, sizeof out, "w");
	is_int(vm_results_write(f, "{}", 2, "6.1\"x\\\n", NULL), 0, "a release with quotes");
	fclose(f);
	is_str(out, "{\n  \"vm\": \"qemu-tcg\",\n  \"vm_kernel\": \"6.1\\\"x\\\\\\n\"\n}\n",
	       "is escaped, not cut");

	is_int(marked("{\"reproduce\": \"x\"}"), -1, "an object that says its reproduce line is refused");
	const char *guest = "{\"command\": \"/bin/vmreplay /trace/0/t\"}";
	f = fmemopen(out, sizeof out, "w");
	is_int(vm_results_write(f, guest, strlen(guest), "6.1", "vmreplay --vm 6.1 t"), 0,
	       "a reproduce line");
	fclose(f);
	is_str(out, "{\n  \"vm\": \"qemu-tcg\",\n  \"vm_kernel\": \"6.1\",\n"
	       "  \"reproduce\": \"vmreplay --vm 6.1 t\",\n  \"command\": \"/bin/vmreplay /trace/0/t\"\n}\n",
	       "goes after the VM's members, the guest's command kept");

	line_is((const char *[]){ "build/bin/vmreplay", "--vm", "6.1.0-57-cloud-amd64", "--json",
	                          "out-6.1.json", "t.lz4" }, 6,
	        "build/bin/vmreplay --vm 6.1.0-57-cloud-amd64 --json out-6.1.json t.lz4",
	        "plain words stay as they are");
	line_is((const char *[]){ "vmreplay", "my trace.lz4", "it's", "", "a$b", "x;y" }, 6,
	        "vmreplay 'my trace.lz4' 'it'\\''s' '' 'a$b' 'x;y'",
	        "spaces, quotes, nothing and shell characters quoted");
	line_is((const char *[]){ "6.12.118+deb12-cloud-amd64", "--vm-mem=2G", "a,b:c@d%e" }, 3,
	        "6.12.118+deb12-cloud-amd64 --vm-mem=2G a,b:c@d%e", "release and option characters are plain");

	name_is("r.json", 0, 0, 0, "r.json");
	name_is("r.json", 0, 1, 0, "r-6.1.0-57-cloud-amd64.json");
	name_is("dir/r.json", 2, 1, 1, "dir/r-6.1.0-57-cloud-amd64-2.json");
	name_is("r.json", 1, 0, 1, "r-1.json");
	name_is("results", 0, 1, 0, "results-6.1.0-57-cloud-amd64");
	return done_testing();
}
