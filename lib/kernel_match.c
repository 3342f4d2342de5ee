/* kernel_match.c - see kernel_match.h. */
#include <string.h>
#include "lib/kernel_match.h"

int km_same_kernel(int sim, const char *kernel, const char *host_kernel, const char *recorded)
{
	if (!kernel || !recorded || !recorded[0])
		return 0;
	if (!sim)
		return strcmp(kernel, recorded) == 0;
	if (strcmp(kernel, "host") == 0)
		return host_kernel && strcmp(host_kernel, recorded) == 0;
	size_t n = strlen(kernel);
	return strncmp(kernel, recorded, n) == 0 && (!recorded[n] || recorded[n] == '.' || recorded[n] == '-');
}
