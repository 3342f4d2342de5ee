/* plugin.c - a library whose constructor maps memory when dlopen()ed: the
 * mapping must be attributed to plugin_ctor, not to the loader. */
#include <sys/mman.h>

void *plugin_area;

__attribute__((constructor, noinline)) static void plugin_ctor(void)
{
	plugin_area = mmap(0, 3 * 4096, PROT_READ | PROT_WRITE, /* site: plugin_ctor */
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}
