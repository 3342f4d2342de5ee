/* exec_env.c - the environment an exec'd image gets: the program's, read
 * without faulting (umem.h), with the recorder's variables put back, an
 * LD_PRELOAD that still loads us, and the handed-over event.  Whatever the
 * program passed that the kernel would refuse (an unreadable or
 * unterminated array or string) reaches the kernel unchanged, so the call
 * fails as it would without us. */
#include "exec.h"
#include "arena.h"
#include "env_self.h"
#include "umem.h"

#include <string.h>

#define PRELOAD "LD_PRELOAD="
#define HEAD 20              /* bytes of each string to tell those apart */
#define STRING_MAX 131072    /* the kernel's MAX_ARG_STRLEN */
#define ENV_MAX (1u << 20)   /* more pointers than any exec takes (E2BIG) */

static int starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

/* What the program's envp holds, read once: its pointers, the first bytes
 * of each string, and which the recorder replaces. */
struct env_scan {
	char **ptrs;
	char *heads;
	uint32_t *got;
	size_t n, bytes;
	long preload;            /* the last LD_PRELOAD's index, or -1 */
	size_t their_len;        /* its value's length */
};

static int replaced(const struct env_scan *e, size_t i)
{
	const char *h = e->heads + i * HEAD;
	return starts(h, e->got[i], PRELOAD) || shim_env_ours(h, e->got[i]);
}

/* 0, or -1 when the program's envp is not what the kernel would take as it
 * is (then it goes to the kernel unchanged). */
static int scan(struct env_scan *e, char *const envp[], size_t n)
{
	e->n = n;
	e->preload = -1;
	e->bytes = n * (sizeof(char *) + HEAD + sizeof(uint32_t));
	if (!n)
		return 0;
	if (!(e->ptrs = arena_alloc(e->bytes)))
		return -1;
	e->heads = (char *)(e->ptrs + n);
	e->got = (uint32_t *)(e->heads + n * HEAD);
	if (umem_copy(e->ptrs, envp, n * sizeof(char *), 8) != n * sizeof(char *))
		return -1;
	umem_heads(e->heads, HEAD, (const uint64_t *)e->ptrs, n, e->got);
	for (size_t i = 0; i < n; i++) {
		if (!replaced(e, i))
			continue;
		/* a string the recorder drops must be one the kernel would take */
		long len = umem_strlen(e->ptrs[i], STRING_MAX);
		if (len < 0)
			return -1;
		if (starts(e->heads + i * HEAD, e->got[i], PRELOAD)) {
			e->preload = (long)i;
			e->their_len = (size_t)len - strlen(PRELOAD);
		}
	}
	return 0;
}

char **exec_env_build(char *const envp[], uint64_t count, uint32_t end, const char *exec_var,
                      size_t *bytes)
{
	const char *const *saved = shim_saved_env();
	const char *lib = shim_lib_path();
	struct env_scan e = { 0 };
	size_t nsaved = 0;
	char **env = NULL;
	*bytes = 0;
	if (end != VMT_ARGV_NULL || count > ENV_MAX || scan(&e, envp, (size_t)count) < 0)
		goto out;
	while (saved[nsaved])
		nsaved++;
	size_t ptrs = (e.n + nsaved + 3) * sizeof(char *);
	size_t size = ptrs + strlen(PRELOAD) + strlen(lib) + 1 + e.their_len + 1 +
	              (exec_var ? strlen(exec_var) : 0) + 1;
	if (!(env = arena_alloc(size)))
		goto out;
	size_t k = 0;
	for (size_t i = 0; i < e.n; i++)
		if (!replaced(&e, i))
			env[k++] = e.ptrs[i];
	for (size_t i = 0; i < nsaved; i++)
		if (strncmp(saved[i], PRELOAD, strlen(PRELOAD)) != 0)
			env[k++] = (char *)saved[i];
	/* LD_PRELOAD: ours first, then whatever else the program asked for */
	char *str = (char *)env + ptrs;
	env[k++] = str;
	char *p = stpcpy(stpcpy(str, PRELOAD), lib);
	if (e.preload >= 0 && e.their_len) {
		const char *from = e.ptrs[e.preload] + strlen(PRELOAD);
		size_t want = e.their_len + 1;
		if (umem_copy(p + 1, from, want, 1) != want || p[1 + e.their_len] != '\0') {
			arena_free(env, size);   /* it changed under us */
			env = NULL;
			goto out;
		}
		if (!strstr(p + 1, lib)) {
			*p = ':';
			p += 1 + e.their_len;
		}
	}
	*p++ = '\0';
	if (exec_var)
		env[k++] = strcpy(p, exec_var);
	env[k] = NULL;
	*bytes = size;
out:
	arena_free(e.ptrs, e.bytes);
	return env;
}
