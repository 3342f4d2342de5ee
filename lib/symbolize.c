/* symbolize.c - the symbol view of a trace: which module an ip belongs to,
 * the (cached) answer for it, and printing stacks the way strace -k does. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/symbolize_internal.h"

/* What to tell the user, once per object, when answers are degraded. */
static const char *const state_note[SYM_OBJ_STATE_COUNT] = {
	[SYM_OBJ_NODEBUG] = "no debug info (install its -dbgsym package): no file:line",
	[SYM_OBJ_MISSING] = "binary gone and no debug file%s%s: frames shown as module+offset",
	[SYM_OBJ_CHANGED] = "binary changed since recording (build id differs) and no debug file%s%s: frames shown as module+offset",
};

/* Modules whose frames are never "the caller that matters": the C
 * library, the loader, the recorder, the C++ runtime's operator new, and
 * the sanitizer runtimes that interpose malloc and mmap. */
static const char *const system_prefixes[] = {
	"libc.so", "libc-", "ld-linux", "ld.so", "libvmrec", "libpthread",
	"libdl.so", "libstdc++", "libgcc_s", "libasan", "libubsan",
};

static void *grow(void *p, uint32_t *cap, uint32_t want, size_t size)
{
	uint32_t n = *cap ? *cap : 16;
	void *q;

	if (want <= *cap)
		return p;
	while (n < want)
		n *= 2;
	q = realloc(p, (size_t)n * size);
	if (!q)
		return NULL;
	*cap = n;
	return q;
}

struct sym_session *sym_new(const char *trace_path)
{
	struct sym_session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->notes = stderr;
	if (trace_path && !(s->trace_path = strdup(trace_path))) {
		free(s);
		return NULL;
	}
	return s;
}

void sym_set_notes(struct sym_session *s, FILE *notes)
{
	s->notes = notes;
}

static int find_object(struct sym_session *s, const struct vmt_module *m)
{
	uint32_t len = m->build_id_len > 20 ? 20 : m->build_id_len;
	struct sym_object *o;

	for (uint32_t i = 0; i < s->nobj; i++) {
		o = &s->objs[i];
		if (o->build_id_len == len && !memcmp(o->build_id, m->build_id, len) &&
		    strcmp(o->path, m->path) == 0)
			return (int)i;
	}
	if (!(o = grow(s->objs, &s->cap_obj, s->nobj + 1, sizeof(*o))))
		return -1;
	s->objs = o;
	o = &s->objs[s->nobj];
	memset(o, 0, sizeof(*o));
	if (!(o->path = strdup(m->path)))
		return -1;
	o->build_id_len = len;
	memcpy(o->build_id, m->build_id, len);
	return (int)s->nobj++;
}

int sym_add_module(struct sym_session *s, const struct vmt_module *m)
{
	struct sym_range *r;
	int obj;

	if (!m->path || !*m->path || m->end <= m->start)
		return 0;
	if ((obj = find_object(s, m)) < 0 ||
	    !(r = grow(s->ranges, &s->cap_range, s->nrange + 1, sizeof(*r))))
		return VMT_ENOMEM;
	s->ranges = r;
	s->ranges[s->nrange++] = (struct sym_range){
		.pid = m->pid, .obj = (uint32_t)obj, .start = m->start,
		.end = m->end, .load_bias = m->load_bias, .order = s->nrange,
	};
	s->ranges_sorted = 0;
	return 0;
}

void sym_add_process(struct sym_session *s, const struct vmt_process *p)
{
	int32_t *q;

	if (p->image != 0 || p->ppid <= 0)
		return;
	if (!(q = grow(s->parent, &s->cap_parent, 2 * (s->nparent + 1), sizeof(*q))))
		return;
	s->parent = q;
	q[2 * s->nparent] = p->pid;
	q[2 * s->nparent + 1] = p->ppid;
	s->nparent++;
}

struct sym_session *sym_open(const char *trace_path, char *err, size_t errlen)
{
	struct vmt_reader_prefs prefs = { .order = VMT_ORDER_FILE };
	struct sym_session *s;
	struct vmt_reader *r;
	struct vmt_record rec;
	int rc, e = 0;

	if (!(r = vmt_reader_open(trace_path, &prefs, &e))) {
		snprintf(err, errlen, "%s", vmt_reader_open_error());
		return NULL;
	}
	if (!(s = sym_new(trace_path))) {
		vmt_reader_close(r);
		snprintf(err, errlen, "%s: %s", trace_path, strerror(ENOMEM));
		return NULL;
	}
	while ((rc = vmt_reader_next(r, &rec)) > 0) {
		if (rec.type == VMT_REC_MODULE)
			rc = sym_add_module(s, &rec.u.module);
		else if (rec.type == VMT_REC_PROCESS)
			sym_add_process(s, &rec.u.process);
		if (rc < 0)
			break;
	}
	/* A truncated trace still symbolises what it has. */
	if (rc < 0 && rc != VMT_ETRUNCATED) {
		snprintf(err, errlen, "%s", rc == VMT_ENOMEM ? "out of memory"
			 : vmt_reader_error(r));
		vmt_reader_close(r);
		sym_close(s);
		return NULL;
	}
	vmt_reader_close(r);
	return s;
}

static int range_cmp(const void *a, const void *b)
{
	const struct sym_range *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static const struct sym_range *find_range_of(struct sym_session *s,
                                             int32_t pid, uint64_t ip)
{
	uint32_t lo = 0, hi = s->nrange;

	/* the last range of pid starting at or below ip */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct sym_range *r = &s->ranges[mid];

		if (r->pid < pid || (r->pid == pid && r->start <= ip))
			lo = mid + 1;
		else
			hi = mid;
	}
	/* After an exec the new image's objects may overlap the old one's:
	 * of the few ranges below ip, the one recorded last holds it. */
	const struct sym_range *best = NULL;
	for (uint32_t i = lo, n = 0; i-- > 0 && s->ranges[i].pid == pid && n < 32; n++)
		if (ip < s->ranges[i].end && (!best || s->ranges[i].order > best->order))
			best = &s->ranges[i];
	return best;
}

static const struct sym_range *find_range(struct sym_session *s, int32_t pid,
                                          uint64_t ip)
{
	const struct sym_range *r;

	if (!s->ranges_sorted) {
		qsort(s->ranges, s->nrange, sizeof(*s->ranges), range_cmp);
		s->ranges_sorted = 1;
	}
	/* a fork child maps what its parent mapped: climb a few levels */
	for (int level = 0; level < 64; level++) {
		uint32_t i;

		if ((r = find_range_of(s, pid, ip)))
			return r;
		for (i = 0; i < s->nparent && s->parent[2 * i] != pid; i++)
			;
		if (i == s->nparent)
			return NULL;
		pid = s->parent[2 * i + 1];
	}
	return NULL;
}

static void note_once(struct sym_session *s, struct sym_object *o)
{
	char dbg[128];

	if (o->noted || !s->notes || !state_note[o->state])
		return;
	o->noted = 1;
	sym_debug_path(o, dbg, sizeof(dbg));
	fprintf(s->notes, "%s: note: %s: ", program_invocation_short_name, o->path);
	fprintf(s->notes, state_note[o->state], *dbg ? " " : " (no build id recorded)", dbg);
	fputc('\n', s->notes);
}

/* "__libc_start_main@@GLIBC_2.34" -> "__libc_start_main", as strace shows */
static const char *intern_unversioned(struct sym_session *s, const char *name)
{
	const char *at = name ? strchr(name, '@') : NULL;
	char buf[512];

	if (!at || at == name || (size_t)(at - name) >= sizeof(buf))
		return sym_intern(s, name);
	memcpy(buf, name, (size_t)(at - name));
	buf[at - name] = '\0';
	return sym_intern(s, buf);
}

void sym_resolve(struct sym_session *s, int32_t pid, uint64_t ip,
                 int is_return_address, struct sym_frame *f)
{
	const struct sym_range *r = find_range(s, pid, ip);
	struct sym_object *o;
	struct sym_entry *e;
	uint64_t addr, back = is_return_address ? 1 : 0;

	memset(f, 0, sizeof(*f));
	f->rel = ip;
	if (!r)
		return;
	o = &s->objs[r->obj];
	f->module = o->path;
	f->rel = ip - r->load_bias;
	addr = f->rel - back;
	if (!s->cache_loaded)
		sym_cache_load(s);
	if (!(e = sym_entry_find(s, sym_key(r->obj, addr)))) {
		const char *func, *file;
		uint64_t off;
		uint32_t line;

		sym_elf_open(o);
		sym_elf_lookup(o, addr, &func, &off, &file, &line);
		if (!(e = sym_entry_add(s, sym_key(r->obj, addr))))
			return;
		e->func = intern_unversioned(s, func);
		e->file = sym_intern(s, file);
		e->func_off = off;
		e->line = line;
		s->cache_dirty = 1;
	}
	note_once(s, o);
	f->func = e->func;
	f->func_off = e->func ? e->func_off + back : 0;
	f->file = e->file;
	f->line = e->line;
}

void sym_print_stack(struct sym_session *s, FILE *out, int32_t pid,
                     const uint64_t *ips, uint32_t depth)
{
	struct sym_frame f;

	for (uint32_t i = 0; i < depth; i++) {
		sym_resolve(s, pid, ips[i], i > 0, &f);
		if (!f.module)
			fprintf(out, " > [unknown] [0x%llx]\n", (unsigned long long)f.rel);
		else if (!f.func)
			fprintf(out, " > %s() [0x%llx]\n", f.module,
				(unsigned long long)f.rel);
		else
			fprintf(out, " > %s(%s+0x%llx) [0x%llx]\n", f.module, f.func,
				(unsigned long long)f.func_off,
				(unsigned long long)f.rel);
	}
}

const char *sym_frame_name(const struct sym_frame *f, char *buf, size_t len)
{
	const char *base;

	if (f->func)
		snprintf(buf, len, "%s", f->func);
	else if (f->module) {
		base = strrchr(f->module, '/');
		snprintf(buf, len, "%s+0x%llx", base ? base + 1 : f->module,
			 (unsigned long long)f->rel);
	} else
		snprintf(buf, len, "0x%llx", (unsigned long long)f->rel);
	return buf;
}

int sym_frame_is_system(const struct sym_frame *f)
{
	const char *base;

	if (!f->module)
		return 0;
	base = strrchr(f->module, '/');
	base = base ? base + 1 : f->module;
	for (size_t i = 0; i < sizeof(system_prefixes) / sizeof(*system_prefixes); i++)
		if (strncmp(base, system_prefixes[i], strlen(system_prefixes[i])) == 0)
			return 1;
	return 0;
}

void sym_close(struct sym_session *s)
{
	if (!s)
		return;
	if (s->cache_dirty)
		sym_cache_save(s);
	for (uint32_t i = 0; i < s->nobj; i++) {
		sym_elf_close(&s->objs[i]);
		free(s->objs[i].path);
	}
	for (uint32_t i = 0; i < s->cap_str; i++)
		free(s->strs[i]);
	free(s->strs);
	free(s->tab);
	free(s->objs);
	free(s->ranges);
	free(s->parent);
	free(s->trace_path);
	free(s);
}
