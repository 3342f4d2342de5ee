/* callpaths.c - VMA calls made along known call paths, recorded with their
 * stacks into TRACE (argv[1]) by selfrec, or, with TRACE "-", by whatever
 * records the program (vmrec --stacks):
 *   main            mmap directly                 1 event, 1 VMA left
 *   map_unmap       mmap then munmap              2 events, 0 VMAs
 *   alloc_big       malloc's internal mmap        1 event, 1 VMA
 *   spawn_thread    pthread_create's stack        mmap + guard mprotect
 *   load_plugin     dlopen: the loader's mappings
 *   plugin_ctor     (in PLUGIN, argv[2]) its constructor's mmap
 * Events happen in that order, so event 0 is main's and event 3 alloc_big's. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "selfrec.h"

static void *volatile sink;

__attribute__((noinline)) static void map_unmap(void)
{
	void *p = mmap(0, 2 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); /* site: map_unmap.mmap */

	munmap(p, 2 * 4096); /* site: map_unmap.munmap */
}

__attribute__((noinline)) static void alloc_big(void)
{
	sink = malloc(1 << 20); /* site: alloc_big */
}

static void *thread_body(void *arg)
{
	return arg;
}

__attribute__((noinline)) static void spawn_thread(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, thread_body, NULL) == 0) /* site: spawn_thread */
		pthread_join(t, NULL);
}

__attribute__((noinline)) static void load_plugin(const char *path)
{
	if (!dlopen(path, RTLD_NOW)) { /* site: load_plugin */
		fprintf(stderr, "callpaths: %s\n", dlerror());
		exit(1);
	}
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: callpaths TRACE PLUGIN.so\n");
		return 2;
	}
	if (strcmp(argv[1], "-"))
		selfrec_start();
	sink = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); /* site: main */
	map_unmap();
	alloc_big(); /* site: main.alloc_big */
	spawn_thread();
	load_plugin(argv[2]);
	if (!strcmp(argv[1], "-"))
		return 0;
	return selfrec_write(argv[1], argc, argv) ? 1 : 0;
}
