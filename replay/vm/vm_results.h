/* vm_results.h - what comes back from a guest, made into results files. */
#ifndef VMREC_VM_RESULTS_H
#define VMREC_VM_RESULTS_H

#include <stdio.h>

/* Write the results JSON `json` (len bytes) to f with "vm": "qemu-tcg",
 * "vm_kernel": release and, unless NULL, "reproduce": the host command
 * that recreates this file, added as the first members of the top-level
 * object, so reports know its timings are not comparable and what to run
 * here (the guest's own "command" names the guest's paths); the guest's
 * members follow as they came.  -1 if json is not one JSON object, or one
 * that has "vm", "vm_kernel" or "reproduce" already. */
int vm_results_write(FILE *f, const char *json, size_t len, const char *release,
                     const char *reproduce);

/* The words joined into one shell command line, each quoted where the
 * shell would read it otherwise.  Returns a malloc'd string, NULL when out
 * of memory. */
char *vm_shell_line(const char *const *words, int n);

/* The file results go to: out itself for a single run, else out with
 * "-<release>" (and "-<trace index>" with several traces) inserted before a
 * trailing ".json".  Returns a malloc'd string. */
char *vm_results_name(const char *out, const char *release, int trace,
                      int many_kernels, int many_traces);

#endif
