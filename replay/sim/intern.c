/* intern.c - rule texts that outlive their call: each distinct text is
 * kept once for the life of the process, so a vr_result's rule stays
 * valid and its own after later calls reuse the simulator's buffer.  The
 * texts come from a small vocabulary (reasons joined by "; "), so the
 * table stays small. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "replay/sim/sim_int.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char **slots;
static size_t nslots, used;

static uint64_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;   /* FNV-1a */
	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

static bool grow(void)
{
	size_t n = nslots ? nslots * 2 : 256;
	char **t = calloc(n, sizeof *t);

	if (!t)
		return false;
	for (size_t i = 0; i < nslots; i++) {
		if (!slots[i])
			continue;
		size_t j = hash(slots[i]) & (n - 1);
		while (t[j])
			j = (j + 1) & (n - 1);
		t[j] = slots[i];
	}
	free(slots);
	slots = t;
	nslots = n;
	return true;
}

const char *sim_intern(const char *text)
{
	const char *r = NULL;

	pthread_mutex_lock(&lock);
	if ((used + 1) * 2 > nslots && !grow())
		goto out;
	size_t j = hash(text) & (nslots - 1);
	while (slots[j] && strcmp(slots[j], text))
		j = (j + 1) & (nslots - 1);
	if (!slots[j] && (slots[j] = strdup(text)))
		used++;
	r = slots[j];
out:
	pthread_mutex_unlock(&lock);
	return r ? r : "(rule text lost: out of memory)";
}
