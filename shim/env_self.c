/* env_self.c - the recorder's own environment.
 *
 * The program sees the environment its parent gave it: the recorder's
 * variables and its LD_PRELOAD entry leave environ (env_self_hide), kept
 * aside for the next image (env_self_save; exec_env.c puts them back). */
#include "env_self.h"
#include "arena.h"
#include "maps.h"
#include "record.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static char lib_path[4096];
static const char *saved_env[8];
/* VMREC_OUT and VMREC_STORE as open_store allows them (under 4,200 bytes
 * each) and the options (under 64 bytes each) */
static char saved_buf[9216];

const char *const *shim_saved_env(void) { return saved_env; }
const char *shim_lib_path(void) { return lib_path; }

int env_self_save(const char *out, const char *store)
{
	static const char *names[] = { "VMREC_STACKS", "VMREC_SUD", "VMREC_RESIDENCY",
	                               "VMREC_TRAMPOLINE", NULL };
	const char *val[4] = { NULL };
	size_t need = sizeof "VMREC_OUT=" + strlen(out) + sizeof "VMREC_STORE=" + strlen(store);
	for (int i = 0; names[i]; i++) {
		const char *v = getenv(names[i]);
		if (v && strlen(v) < 64) {
			val[i] = v;
			need += strlen(names[i]) + strlen(v) + 2;
		}
	}
	saved_env[0] = NULL;
	if (need > sizeof saved_buf)
		return -1;
	char *p = saved_buf;
	int n = 0;
	saved_env[n++] = p;
	p = stpcpy(stpcpy(p, "VMREC_OUT="), out) + 1;
	saved_env[n++] = p;
	p = stpcpy(stpcpy(p, "VMREC_STORE="), store) + 1;
	for (int i = 0; names[i]; i++)
		if (val[i]) {
			saved_env[n++] = p;
			p = stpcpy(stpcpy(stpcpy(p, names[i]), "="), val[i]) + 1;
		}
	saved_env[n] = NULL;
	return 0;
}

/* The program sees the environment it would have without the recorder:
 * VMREC_* and the recorder's LD_PRELOAD entry are taken out of environ in
 * place (no allocation; the exec hook puts them back for the next image).
 * Their mere size changed what the program allocated: python's heap took
 * 13 brk calls for `import json` instead of 10. */
static int is_self(const char *tok, size_t n)
{
	static const char name[] = "libvmrec.so";
	size_t ln = strlen(lib_path), nn = sizeof name - 1;
	return (ln && n == ln && memcmp(tok, lib_path, n) == 0) ||
	       (n >= nn && memcmp(tok + n - nn, name, nn) == 0 && (n == nn || tok[n - nn - 1] == '/'));
}

int shim_env_ours(const char *s, size_t len)
{
	static const char *const names[] = {
		"VMREC_OUT=", "VMREC_STACKS=", "VMREC_SUD=", "VMREC_RESIDENCY=", "VMREC_MODE=",
		"VMREC_LAUNCHER=", "VMREC_STORE=", "VMREC_EXEC=", "VMREC_OFF=", "VMREC_TRAMPOLINE=",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		size_t n = strlen(names[i]);
		if (len >= n && memcmp(s, names[i], n) == 0)
			return 1;
	}
	return 0;
}

/* LD_PRELOAD without the recorder, in recorder memory; NULL when nothing
 * is left (the variable goes). */
/* Where the copies go when the recorder has no arena (it stays out of a
 * process under an address-space limit, map_trampoline). */
static char *env_space(size_t bytes)
{
	static char spare[16384] __attribute__((aligned(16)));
	static size_t used;
	char *p = arena_alloc(bytes);
	if (p || used + bytes > sizeof spare)
		return p;
	p = spare + used;
	used += (bytes + 15) & ~(size_t)15;
	return p;
}

static char *preload_without_self(char *e)
{
	char *out = env_space(strlen(e) + 1);
	if (!out)
		return e;
	char *start = stpcpy(out, "LD_PRELOAD="), *w = start;
	for (const char *p = e + 11; *p;) {
		while (*p == ':' || *p == ' ')
			p++;
		const char *q = p;
		while (*q && *q != ':' && *q != ' ')
			q++;
		if (q > p && !is_self(p, (size_t)(q - p))) {
			if (w > start)
				*w++ = ':';
			memcpy(w, p, (size_t)(q - p));
			w += q - p;
		}
		p = q;
	}
	*w = 0;
	return w == start ? NULL : out;
}

/* environ becomes a copy without them, in recorder memory (main's envp
 * is read after the constructors): the initial stack stays as the
 * kernel built it, so a program that walks past envp to the auxiliary
 * vector (Go's runtime does) finds it where it is. */
void env_self_hide(void)
{
	extern char **environ;
	size_t n = 0;
	if (!environ)
		return;
	while (environ[n])
		n++;
	char **copy = (char **)(void *)env_space((n + 1) * sizeof(char *)), **w = copy;
	if (!copy)
		return;
	for (char **r = environ; *r; r++) {
		if (shim_env_ours(*r, strlen(*r)))
			continue;
		if (strncmp(*r, "LD_PRELOAD=", 11) == 0) {
			char *kept = preload_without_self(*r);
			if (kept)
				*w++ = kept;
			continue;
		}
		*w++ = *r;
	}
	*w = NULL;
	environ = copy;
}

static int find_self(const struct maps_line *l, void *arg)
{
	uint64_t here = (uint64_t)(uintptr_t)find_self;
	(void)arg;
	if (here < l->start || here >= l->end || strlen(l->name) >= sizeof lib_path)
		return 0;
	strcpy(lib_path, l->name);
	return 1;
}

/* As /proc/self/maps names the library, whatever LD_PRELOAD said; under
 * the launcher, and in a later image (VMREC_STORE: exec_env.c gave it
 * the path a maps line showed), LD_PRELOAD gives the real path, and
 * ld.so's name for the library is that one: no read of maps. */
void env_self_locate(void *fn)
{
	Dl_info info;
	const char *store = getenv("VMREC_STORE");
	if ((shim.tramp || (store && *store)) && dladdr(fn, &info) && info.dli_fname &&
	    info.dli_fname[0] == '/' && strlen(info.dli_fname) < sizeof lib_path)
		strcpy(lib_path, info.dli_fname);
	else
		maps_each(find_self, NULL);
	if (!lib_path[0] && dladdr(fn, &info) && info.dli_fname)
		strncpy(lib_path, info.dli_fname, sizeof lib_path - 1);
}

/* A tree whose root could not record says so once: the root renames
 * VMREC_OUT to VMREC_OFF in place (no allocation), so the images and
 * processes that inherit the environment stay silent instead of each
 * trying, and warning, again (a full disk: once per recording). */
void env_self_off(void)
{
	extern char **environ;
	for (char **e = environ; e && *e; e++)
		if (strncmp(*e, "VMREC_OUT=", 10) == 0)
			memcpy(*e + 6, "OFF", 3);
}
