/* symbolize_elf.c - one object's addresses to names with elfutils' libdwfl.
 *
 * Each object gets its own Dwfl with the file reported at bias 0, so
 * lookups take addresses relative to the load bias and one handle serves
 * every pid that mapped the object, wherever ASLR put it.  Debug info is
 * found by libdwfl's standard search (build id under /usr/lib/debug, as
 * Debian's -dbgsym packages install it; .gnu_debuglink). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elfutils/libdwfl.h>
#include <elfutils/libdwelf.h>
#include "lib/symbolize_internal.h"

struct sym_elf {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	int has_dwarf;
};

static char *debuginfo_path; /* NULL: libdwfl's default search path */

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

void sym_fingerprint_of(const char *path, struct sym_fingerprint *fp)
{
	struct stat st;

	memset(fp, 0, sizeof(*fp));
	if (!path || !*path || stat(path, &st) != 0)
		return;
	fp->ino = st.st_ino;
	fp->size = (uint64_t)st.st_size;
	fp->mtime_ns = (uint64_t)st.st_mtim.tv_sec * 1000000000u +
		       (uint64_t)st.st_mtim.tv_nsec;
}

void sym_debug_path(const struct sym_object *o, char *buf, size_t len)
{
	size_t n;

	if (o->build_id_len < 2 || len < 64) {
		if (len)
			buf[0] = '\0';
		return;
	}
	n = (size_t)snprintf(buf, len, "/usr/lib/debug/.build-id/%02x/",
			     o->build_id[0]);
	for (uint32_t i = 1; i < o->build_id_len && n + 3 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%02x", o->build_id[i]);
	snprintf(buf + n, len - n, ".debug");
}

/* The build id in an ELF file on disk matches the recorded one (or there
 * is none recorded to compare). */
static int build_id_matches(const struct sym_object *o, const char *path)
{
	const void *id;
	ssize_t n;
	Elf *elf;
	int fd, same;

	if (o->build_id_len == 0)
		return 1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	n = elf ? dwelf_elf_gnu_build_id(elf, &id) : -1;
	same = n == (ssize_t)o->build_id_len &&
	       memcmp(id, o->build_id, o->build_id_len) == 0;
	if (elf)
		elf_end(elf);
	close(fd);
	return same;
}

static struct sym_elf *report(const char *name, const char *file)
{
	struct sym_elf *e = calloc(1, sizeof(*e));
	Dwarf_Addr bias;

	if (!e)
		return NULL;
	e->dwfl = dwfl_begin(&callbacks);
	if (e->dwfl) {
		dwfl_report_begin(e->dwfl);
		e->mod = dwfl_report_elf(e->dwfl, name, file, -1, 0, true);
		dwfl_report_end(e->dwfl, NULL, NULL);
	}
	if (!e->mod) {
		if (e->dwfl)
			dwfl_end(e->dwfl);
		free(e);
		return NULL;
	}
	e->has_dwarf = dwfl_module_getdwarf(e->mod, &bias) != NULL;
	return e;
}

void sym_elf_open(struct sym_object *o)
{
	char dbg[128];
	int have_bin;

	if (o->elf_tried)
		return;
	o->elf_tried = 1;
	if (!strchr(o->path, '/')) { /* linux-vdso.so.1, [vdso] */
		o->state = SYM_OBJ_PSEUDO;
		return;
	}
	elf_version(EV_CURRENT);
	sym_debug_path(o, dbg, sizeof(dbg));
	have_bin = access(o->path, R_OK) == 0;
	if (have_bin && build_id_matches(o, o->path))
		o->elf = report(o->path, o->path);
	else if (*dbg && access(dbg, R_OK) == 0)
		/* A separate debug file keeps the symbol table and the
		 * program headers: enough when the binary is gone. */
		o->elf = report(o->path, dbg);
	if (o->elf)
		o->state = o->elf->has_dwarf ? SYM_OBJ_DEBUG : SYM_OBJ_NODEBUG;
	else
		o->state = have_bin ? SYM_OBJ_CHANGED : SYM_OBJ_MISSING;
}

/* libdw before 0.190 finds a CU through .debug_aranges only, which clang
 * does not emit: ask each CU whether it holds the address instead. */
static const char *line_by_cu_scan(Dwfl_Module *mod, Dwarf_Addr addr, int *lineno)
{
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;
	Dwarf_Line *l;

	while ((cu = dwfl_module_nextcu(mod, cu, &bias)))
		if (dwarf_haspc(cu, addr - bias) > 0) {
			if (!(l = dwarf_getsrc_die(cu, addr - bias)) || dwarf_lineno(l, lineno))
				return NULL;
			return dwarf_linesrc(l, NULL, NULL);
		}
	return NULL;
}

int sym_elf_lookup(struct sym_object *o, uint64_t addr,
                   const char **func, uint64_t *func_off,
                   const char **file, uint32_t *line)
{
	GElf_Off off = 0;
	GElf_Sym sym;
	Dwfl_Line *l;
	int lineno = 0;

	*func = *file = NULL;
	*func_off = 0;
	*line = 0;
	if (!o->elf)
		return 0;
	*func = dwfl_module_addrinfo(o->elf->mod, addr, &off, &sym,
				     NULL, NULL, NULL);
	*func_off = off;
	if (o->elf->has_dwarf && (l = dwfl_module_getsrc(o->elf->mod, addr)))
		*file = dwfl_lineinfo(l, NULL, &lineno, NULL, NULL, NULL);
	else if (o->elf->has_dwarf)
		*file = line_by_cu_scan(o->elf->mod, addr, &lineno);
	*line = lineno > 0 ? (uint32_t)lineno : 0;
	if (!*line)
		*file = NULL;
	return 1;
}

void sym_elf_close(struct sym_object *o)
{
	if (!o->elf)
		return;
	dwfl_end(o->elf->dwfl);
	free(o->elf);
	o->elf = NULL;
}
