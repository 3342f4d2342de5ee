/* symbolize_cache.c - a trace's symbol answers kept on disk so the next
 * query skips libdwfl.  Text, one record a line, tab-separated:
 *
 *   vmrec-syms 2
 *   trace SIZE MTIME_NS
 *   o INDEX BUILD_ID|- STATE BIN_FINGERPRINT DEBUG_FINGERPRINT PATH
 *   e OBJECT ADDR_HEX FUNC_OFF_HEX LINE FUNC FILE
 *   end ENTRIES
 *
 * Trusted only when the trace's size and mtime, and every object's binary
 * and build-id debug file (inode, size, mtime), are as they were; anything
 * else, or any line that does not parse, and the whole file is ignored. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/symbolize_internal.h"

/* bumped whenever the same files would now give other answers */
#define CACHE_MAGIC "vmrec-syms 2"
#define MAX_CACHE_BYTES (256u << 20)

static int beside_path(const struct sym_session *s, char *buf, size_t len)
{
	return snprintf(buf, len, "%s.syms", s->trace_path) < (int)len;
}

/* $XDG_CACHE_HOME/vmrec/<trace's absolute path, '/' as '%'>.syms */
static int user_path(const struct sym_session *s, char *buf, size_t len, int mkdirs)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char real[PATH_MAX], dir[PATH_MAX];
	size_t n;

	if (!realpath(s->trace_path, real))
		return 0;
	if (xdg && *xdg)
		n = (size_t)snprintf(dir, sizeof(dir), "%s", xdg);
	else if (home && *home)
		n = (size_t)snprintf(dir, sizeof(dir), "%s/.cache", home);
	else
		return 0;
	if (n >= sizeof(dir) - 8)
		return 0;
	if (mkdirs) {
		mkdir(dir, 0700);
		strcat(dir, "/vmrec");
		mkdir(dir, 0700);
	} else
		strcat(dir, "/vmrec");
	for (char *p = real; *p; p++)
		if (*p == '/')
			*p = '%';
	return snprintf(buf, len, "%s/%s.syms", dir, real) < (int)len;
}

static void fp_print(FILE *f, const struct sym_fingerprint *fp)
{
	fprintf(f, "%llx:%llx:%llx", (unsigned long long)fp->ino,
		(unsigned long long)fp->size, (unsigned long long)fp->mtime_ns);
}

static int fp_parse(const char *str, struct sym_fingerprint *fp)
{
	char *end;

	fp->ino = strtoull(str, &end, 16);
	if (*end++ != ':')
		return 0;
	fp->size = strtoull(end, &end, 16);
	if (*end++ != ':')
		return 0;
	fp->mtime_ns = strtoull(end, &end, 16);
	return *end == '\0';
}

static void current_fingerprints(const struct sym_object *o,
                                 struct sym_fingerprint *bin,
                                 struct sym_fingerprint *dbg)
{
	char path[128];

	sym_fingerprint_of(o->path, bin);
	sym_debug_path(o, path, sizeof(path));
	sym_fingerprint_of(path, dbg);
}

static void hex_id(const struct sym_object *o, char *buf)
{
	if (!o->build_id_len)
		strcpy(buf, "-");
	for (uint32_t i = 0; i < o->build_id_len; i++)
		sprintf(buf + 2 * i, "%02x", o->build_id[i]);
}

static int trace_stat(const struct sym_session *s, uint64_t *size, uint64_t *mtime)
{
	struct sym_fingerprint fp;

	sym_fingerprint_of(s->trace_path, &fp);
	*size = fp.size;
	*mtime = fp.mtime_ns;
	return fp.ino != 0 || fp.size != 0;
}

/* Split line at tabs into at most max fields; returns the count. */
static int split(char *line, char **field, int max)
{
	int n = 0;

	field[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == '\t') {
			*p = '\0';
			field[n++] = p + 1;
		}
	return n;
}

static int parse_u64(const char *str, int base, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(str, &end, base);
	return *str && *end == '\0' && errno == 0;
}

/* Parse a whole cache; on any doubt return 0 and leave no entries. */
static int parse(struct sym_session *s, char *text)
{
	uint64_t size, mtime, v, want_size, want_mtime, entries = 0, addr, off, line;
	uint32_t *objmap = NULL, nmap = 0;
	int *states = calloc(s->nobj + 1, sizeof(int)), ok = 0, ended = 0;
	char *save = NULL, *l, *field[8];

	if (!states || !trace_stat(s, &want_size, &want_mtime))
		goto out;
	l = strtok_r(text, "\n", &save);
	if (!l || strcmp(l, CACHE_MAGIC) != 0)
		goto out;
	l = strtok_r(NULL, "\n", &save);
	if (!l || split(l, field, 8) != 3 || strcmp(field[0], "trace") ||
	    !parse_u64(field[1], 10, &size) || !parse_u64(field[2], 10, &mtime) ||
	    size != want_size || mtime != want_mtime)
		goto out;
	while ((l = strtok_r(NULL, "\n", &save))) {
		int n = split(l, field, 8);

		if (ended)
			goto out;
		if (n == 7 && !strcmp(field[0], "o")) {
			struct sym_fingerprint bin, dbg, cbin, cdbg;
			char id[41];
			uint32_t i;

			if (!parse_u64(field[1], 10, &v) || v != nmap ||
			    !parse_u64(field[3], 10, &v) || v == SYM_OBJ_UNOPENED ||
			    v >= SYM_OBJ_STATE_COUNT ||
			    !fp_parse(field[4], &bin) || !fp_parse(field[5], &dbg))
				goto out;
			for (i = 0; i < s->nobj; i++) {
				hex_id(&s->objs[i], id);
				if (!strcmp(s->objs[i].path, field[6]) && !strcmp(id, field[2]))
					break;
			}
			if (i == s->nobj)
				goto out;
			current_fingerprints(&s->objs[i], &cbin, &cdbg);
			if (memcmp(&bin, &cbin, sizeof(bin)) || memcmp(&dbg, &cdbg, sizeof(dbg)))
				goto out; /* a binary or debug file changed */
			uint32_t *m = realloc(objmap, (nmap + 1) * sizeof(*objmap));
			if (!m)
				goto out;
			objmap = m;
			objmap[nmap++] = i;
			states[i] = (int)v;
		} else if (n == 7 && !strcmp(field[0], "e")) {
			struct sym_entry *e;

			if (!parse_u64(field[1], 10, &v) || v >= nmap ||
			    !parse_u64(field[2], 16, &addr) ||
			    !parse_u64(field[3], 16, &off) ||
			    !parse_u64(field[4], 10, &line) || line > UINT32_MAX ||
			    !(e = sym_entry_add(s, sym_key(objmap[v], addr))))
				goto out;
			e->func = *field[5] ? sym_intern(s, field[5]) : NULL;
			e->file = *field[6] ? sym_intern(s, field[6]) : NULL;
			e->func_off = off;
			e->line = (uint32_t)line;
			entries++;
		} else if (n == 2 && !strcmp(field[0], "end")) {
			if (!parse_u64(field[1], 10, &v) || v != entries)
				goto out;
			ended = 1;
		} else
			goto out;
	}
	if (!ended)
		goto out;
	for (uint32_t i = 0; i < s->nobj; i++)
		if (states[i])
			s->objs[i].state = states[i];
	ok = 1;
out:
	if (!ok)
		sym_entries_clear(s);
	free(objmap);
	free(states);
	return ok;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	struct stat st;
	char *buf = NULL;

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) == 0 && st.st_size > 0 &&
	    (uint64_t)st.st_size < MAX_CACHE_BYTES &&
	    (buf = malloc((size_t)st.st_size + 1))) {
		if (fread(buf, 1, (size_t)st.st_size, f) == (size_t)st.st_size &&
		    !memchr(buf, '\0', (size_t)st.st_size))
			buf[st.st_size] = '\0';
		else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

void sym_cache_load(struct sym_session *s)
{
	char path[PATH_MAX + 64], *text;

	s->cache_loaded = 1;
	if (!s->trace_path || getenv("VMREC_NO_SYMCACHE"))
		return;
	for (int where = 0; where < 2; where++) {
		if (!(where ? user_path(s, path, sizeof(path), 0)
			    : beside_path(s, path, sizeof(path))))
			continue;
		if ((text = slurp(path))) {
			int ok = parse(s, text);

			free(text);
			if (ok)
				return;
		}
	}
}

static int has_tab_or_newline(const char *str)
{
	return str && strpbrk(str, "\t\n");
}

static int write_cache(struct sym_session *s, FILE *f)
{
	uint64_t size, mtime, entries = 0;
	int32_t *index = calloc(s->nobj + 1, sizeof(*index));
	uint32_t nwritten = 0;
	char id[41];

	if (!index || !trace_stat(s, &size, &mtime)) {
		free(index);
		return 0;
	}
	fprintf(f, "%s\ntrace\t%llu\t%llu\n", CACHE_MAGIC,
		(unsigned long long)size, (unsigned long long)mtime);
	for (uint32_t i = 0; i < s->nobj; i++) {
		struct sym_object *o = &s->objs[i];
		struct sym_fingerprint bin, dbg;

		index[i] = -1;
		if (o->state == SYM_OBJ_UNOPENED || has_tab_or_newline(o->path))
			continue;
		current_fingerprints(o, &bin, &dbg);
		hex_id(o, id);
		fprintf(f, "o\t%u\t%s\t%d\t", nwritten, id, o->state);
		fp_print(f, &bin);
		fputc('\t', f);
		fp_print(f, &dbg);
		fprintf(f, "\t%s\n", o->path);
		index[i] = (int32_t)nwritten++;
	}
	for (uint32_t i = 0; i < s->cap_tab; i++) {
		const struct sym_entry *e = &s->tab[i];
		uint32_t obj = (uint32_t)(e->key >> 48) - 1;

		if (!e->key || index[obj] < 0 || has_tab_or_newline(e->func) ||
		    has_tab_or_newline(e->file))
			continue;
		fprintf(f, "e\t%d\t%llx\t%llx\t%u\t%s\t%s\n", index[obj],
			(unsigned long long)(e->key & 0xffffffffffffull),
			(unsigned long long)e->func_off, e->line,
			e->func ? e->func : "", e->file ? e->file : "");
		entries++;
	}
	fprintf(f, "end\t%llu\n", (unsigned long long)entries);
	free(index);
	return 1;
}

/* Written as every output is (vmt.h's vmt_output_*): a reader never sees
 * half, no symlink is followed.  Quietly: the cache is only a cache. */
static int save_to(struct sym_session *s, const char *path)
{
	struct vmt_output o;
	int fd = vmt_output_open(&o, path, VMT_OUTPUT_MODE_PRIVATE);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		vmt_output_abort(&o);
		return 0;
	}
	int ok = write_cache(s, f);
	ok = (fclose(f) == 0) && ok;
	o.fd = -1;   /* fclose closed it */
	if (ok && vmt_output_commit(&o) == 0)
		return 1;
	vmt_output_abort(&o);
	return 0;
}

void sym_cache_save(struct sym_session *s)
{
	char path[PATH_MAX + 64];

	if (!s->trace_path || getenv("VMREC_NO_SYMCACHE"))
		return;
	if ((beside_path(s, path, sizeof(path)) && save_to(s, path)) ||
	    (user_path(s, path, sizeof(path), 1) && save_to(s, path)))
		s->cache_dirty = 0;
}
