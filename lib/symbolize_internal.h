/* symbolize_internal.h - what symbolize.c, symbolize_elf.c,
 * symbolize_cache.c and symbolize_table.c share.  Not for other tools:
 * use symbolize.h. */
#ifndef VMREC_SYMBOLIZE_INTERNAL_H
#define VMREC_SYMBOLIZE_INTERNAL_H

#include <stdint.h>
#include <stdio.h>
#include "lib/symbolize.h"

/* How far an object could be opened: decides the note and the fallback. */
enum sym_obj_state {
	SYM_OBJ_UNOPENED = 0,
	SYM_OBJ_DEBUG,      /* symbols and DWARF */
	SYM_OBJ_NODEBUG,    /* symbols only: no file:line */
	SYM_OBJ_MISSING,    /* neither the binary nor its debug file */
	SYM_OBJ_CHANGED,    /* binary's build id differs, no debug file */
	SYM_OBJ_PSEUDO,     /* no '/' in the name (the vdso): no file to read */
	SYM_OBJ_STATE_COUNT
};

/* The files an object's answers depend on, as stat() saw them; a cache is
 * trusted only while these are unchanged. */
struct sym_fingerprint {
	uint64_t ino, size, mtime_ns; /* all 0: absent */
};

/* One ELF object (path + build id), shared by every pid that mapped it. */
struct sym_object {
	char *path;
	uint8_t build_id[20];
	uint32_t build_id_len;
	int state;                   /* enum sym_obj_state */
	int noted;                   /* its note was printed */
	int elf_tried;               /* sym_elf_open ran */
	struct sym_fingerprint bin, dbg;
	struct sym_elf *elf;         /* libdwfl handle, opened on first miss */
};

/* A module record of one pid: where an object sat in its address space. */
struct sym_range {
	int32_t pid;
	uint32_t obj;
	uint32_t order;              /* records added before this one */
	uint64_t start, end, load_bias;
};

/* A resolved lookup address of an object (strings are interned). */
struct sym_entry {
	uint64_t key;                /* sym_key(obj, addr); 0: empty slot */
	const char *func, *file;
	uint64_t func_off;           /* from func's start to the lookup address */
	uint32_t line;
};

struct sym_session {
	char *trace_path;
	FILE *notes;
	struct sym_object *objs;
	uint32_t nobj, cap_obj;
	struct sym_range *ranges;
	uint32_t nrange, cap_range;
	int ranges_sorted;
	int32_t *parent;             /* pairs pid, ppid */
	uint32_t nparent, cap_parent;
	struct sym_entry *tab;       /* open addressing, power-of-two size */
	uint32_t ntab, cap_tab;
	char **strs;                 /* interned strings, open addressing */
	uint32_t nstr, cap_str;
	int cache_loaded;            /* tried (whether or not it was usable) */
	int cache_dirty;             /* entries not yet written */
};

static inline uint64_t sym_key(uint32_t obj, uint64_t addr)
{
	return ((uint64_t)(obj + 1) << 48) | (addr & 0xffffffffffffull);
}

/* symbolize_table.c */
const char *sym_intern(struct sym_session *s, const char *str);
struct sym_entry *sym_entry_find(struct sym_session *s, uint64_t key);
struct sym_entry *sym_entry_add(struct sym_session *s, uint64_t key);
void sym_entries_clear(struct sym_session *s);

/* symbolize_elf.c: open obj with libdwfl, set its state; look one address
 * up (relative to the load bias).  Returns 0 when the object is unusable. */
void sym_elf_open(struct sym_object *o);
int sym_elf_lookup(struct sym_object *o, uint64_t addr,
                   const char **func, uint64_t *func_off,
                   const char **file, uint32_t *line);
void sym_elf_close(struct sym_object *o);
/* /usr/lib/debug/.build-id/xx/yyyy.debug for o's build id, or "" */
void sym_debug_path(const struct sym_object *o, char *buf, size_t len);
void sym_fingerprint_of(const char *path, struct sym_fingerprint *fp);

/* symbolize_cache.c */
void sym_cache_load(struct sym_session *s);
void sym_cache_save(struct sym_session *s);

#endif
