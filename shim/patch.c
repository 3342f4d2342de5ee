/* patch.c - entry patching.  `movabs $hook, %r11; jmp *%r11` is 13 bytes;
 * r11 is clobbered by the syscall instruction anyway, so no caller of a
 * system call wrapper can expect it preserved. */
#include "patch.h"
#include "raw.h"

#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define JUMP_LEN 13

static unsigned long text_start, text_end, libc_base;
static const ElfW(Dyn) *libc_dynamic;

static int find_libc(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size; (void)arg;
	if (!strstr(info->dlpi_name, "/libc.so"))
		return 0;
	libc_base = info->dlpi_addr;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			text_start = info->dlpi_addr + ph->p_vaddr;
			text_end = text_start + ph->p_memsz;
		}
		if (ph->p_type == PT_DYNAMIC)
			libc_dynamic = (const ElfW(Dyn) *)(info->dlpi_addr + ph->p_vaddr);
	}
	return 1;
}

/* libc's own definition of `name` through its GNU hash table: dlopen and
 * dlsym would allocate from the program's heap (and move its brk), and
 * RTLD_DEFAULT could find a program's interposer instead. */
static void *libc_symbol(const char *name)
{
	if (!libc_dynamic)
		dl_iterate_phdr(find_libc, NULL);
	const ElfW(Sym) *symtab = NULL;
	const char *strtab = NULL;
	const uint32_t *gnu = NULL;
	const uint16_t *versym = NULL;
	for (const ElfW(Dyn) *d = libc_dynamic; d && d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_SYMTAB) symtab = (const void *)d->d_un.d_ptr;
		if (d->d_tag == DT_STRTAB) strtab = (const void *)d->d_un.d_ptr;
		if (d->d_tag == DT_GNU_HASH) gnu = (const void *)d->d_un.d_ptr;
		if (d->d_tag == DT_VERSYM) versym = (const void *)d->d_un.d_ptr;
	}
	if (!symtab || !strtab || !gnu)
		return NULL;
	uint32_t h = 5381, nbuckets = gnu[0], symoffset = gnu[1], bloom_size = gnu[2];
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = h * 33 + *p;
	const uint32_t *buckets = gnu + 4 + bloom_size * (sizeof(ElfW(Addr)) / 4);
	const uint32_t *chain = buckets + nbuckets;
	uint32_t i = buckets[h % nbuckets];
	if (i < symoffset)
		return NULL;
	for (;; i++) {
		const ElfW(Sym) *sym = &symtab[i];
		uint32_t ch = chain[i - symoffset];
		if ((ch | 1) == (h | 1) && strcmp(strtab + sym->st_name, name) == 0 &&
		    sym->st_shndx != SHN_UNDEF && !(versym && (versym[i] & 0x8000)))
			return (void *)(libc_base + sym->st_value);
		if (ch & 1)
			return NULL;
	}
}

int patch_in_libc(uint64_t addr)
{
	return text_start && addr >= text_start && addr < text_end;
}

void patch_libc_text(unsigned long *start, unsigned long *len)
{
	if (!text_start)
		dl_iterate_phdr(find_libc, NULL);
	*start = text_start;
	*len = text_end - text_start;
}

static int hexval(char c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* Compare code at p with a pattern like "b8 0b 00 00 00 0f 05 ?? ??". */
static int matches(const unsigned char *p, const char *pat, size_t *len)
{
	size_t i = 0;
	for (const char *s = pat; *s; ) {
		if (*s == ' ') { s++; continue; }
		if (s[0] != '?' && ((hexval(s[0]) << 4) | hexval(s[1])) != p[i])
			return 0;
		s += 2;
		i++;
	}
	*len = i;
	return 1;
}

static void *libc_symbol(const char *name);
static unsigned char *search_in(const char *pat, const unsigned char *fixed, size_t best,
                                size_t best_at, unsigned char *p, unsigned char *end);

/* Find the pattern in libc's text: memmem for its longest fixed run, then
 * the whole pattern around each hit; first within 64 KiB of the exported
 * symbol `near`, then (whole_text) everywhere. */
static unsigned char *search(const char *pat, const char *near_sym, int whole_text)
{
	unsigned char fixed[128];
	size_t n = 0, best = 0, best_at = 0, run = 0;
	for (const char *s = pat; *s && n < sizeof fixed; ) {
		if (*s == ' ') { s++; continue; }
		if (s[0] == '?') {
			run = 0;
		} else {
			fixed[n] = (unsigned char)((hexval(s[0]) << 4) | hexval(s[1]));
			if (++run > best)
				best = run, best_at = n + 1 - run;
		}
		s += 2;
		n++;
	}
	if (!text_start)
		dl_iterate_phdr(find_libc, NULL);
	/* memmem over all of libc's text costs ~0.3 ms per process */
	unsigned char *lo = (unsigned char *)text_start, *hi = (unsigned char *)text_end;
	unsigned char *near = libc_symbol(near_sym), *hit = NULL;
	if (near)
		hit = search_in(pat, fixed, best, best_at, near - 65536 > lo ? near - 65536 : lo,
		                near + 65536 < hi ? near + 65536 : hi);
	return hit || !whole_text ? hit : search_in(pat, fixed, best, best_at, lo, hi);
}

static unsigned char *search_in(const char *pat, const unsigned char *fixed, size_t best,
                                size_t best_at, unsigned char *p, unsigned char *end)
{
	size_t len;
	while (best && p < end) {
		unsigned char *hit = memmem(p, (size_t)(end - p), fixed + best_at, best);
		if (!hit)
			break;
		if (hit - best_at >= (unsigned char *)text_start && matches(hit - best_at, pat, &len))
			return hit - best_at;
		p = hit + 1;
	}
	return NULL;
}

/* The fallback where /proc/self/mem refuses the writes: the whole text at
 * once, one mprotect there and back, leaves libc's text a single VMA
 * (page-sized changes would split it and stay split). */
static int text_writable(int on)
{
	unsigned long start = shim_page_down(text_start), end = shim_page_up(text_end);
	return raw_failed(raw3(SYS_mprotect, start, end - start,
	                       PROT_READ | PROT_EXEC | (on ? PROT_WRITE : 0))) ? -1 : 0;
}

/* Code goes in through /proc/self/mem: the kernel writes a private copy
 * of each page past its protection, so libc's text is never writable,
 * no VMA changes and the program sees no mprotect.  Where that is
 * refused (no /proc, proc_mem.force_override=never), the text is made
 * writable for the writes.  -1: neither. */
struct poker { long fd; int writable; };

static void poke_begin(struct poker *pk)
{
	pk->fd = raw3(SYS_openat, AT_FDCWD, "/proc/self/mem", O_RDWR | O_CLOEXEC);
	pk->writable = 0;
}

static int poke(struct poker *pk, unsigned char *at, const void *code, size_t len)
{
	if (!raw_failed(pk->fd)) {
		if (raw4(SYS_pwrite64, pk->fd, code, len, (long)(uintptr_t)at) == (long)len)
			return 0;
		raw1(SYS_close, pk->fd);
		pk->fd = -1;
	}
	if (!pk->writable) {
		if (text_writable(1) < 0)
			return -1;
		pk->writable = 1;
	}
	memcpy(at, code, len);
	return 0;
}

static void poke_end(struct poker *pk)
{
	if (!raw_failed(pk->fd))
		raw1(SYS_close, pk->fd);
	if (pk->writable)
		text_writable(0);
}

static void jump_code(unsigned char code[JUMP_LEN], void *hook)
{
	code[0] = 0x49; code[1] = 0xbb;                         /* movabs $hook, %r11 */
	memcpy(code + 2, &hook, 8);
	code[10] = 0x41; code[11] = 0xff; code[12] = 0xe3;      /* jmp *%r11 */
}

static void warn(const char *what, const char *sym)
{
	static const char a[] = "vmrec: not patching ";
	raw3(SYS_write, 2, a, sizeof a - 1);
	raw3(SYS_write, 2, sym, strlen(sym));
	raw3(SYS_write, 2, what, strlen(what));
}

/* Offset just past the first syscall instruction among the len bytes the
 * site's pattern matched (known to be the wrapper's), read before the jump
 * overwrites its entry. */
static uint32_t syscall_end(const unsigned char *p, size_t len)
{
	for (uint32_t i = 0; i + 1 < len; i++)
		if (p[i] == 0x0f && p[i + 1] == 0x05)
			return i + 2;
	return 0;
}

/* A clone wrapper's child calls the thread's function through a register
 * (`ff d0`..`ff d7`) a few instructions after its syscall (glibc's clone.S
 * and clone3.S); the offset just past that call, 0 if there is none. */
static uint32_t call_end(const unsigned char *p, uint32_t sys_end)
{
	if (!sys_end)
		return 0;
	for (uint32_t i = sys_end; i + 1 < sys_end + 32; i++)
		if (p[i] == 0xff && p[i + 1] >= 0xd0 && p[i + 1] <= 0xd7)
			return i + 2;
	return 0;
}

/* Hooks are small: an address further than this past the nearest hook's
 * entry is in some other function. */
#define HOOK_MAX_SIZE 2048

static const struct patch_site *hook_of(const struct patch_site *sites, size_t n, uint64_t hook_ip)
{
	const struct patch_site *best = NULL;
	for (size_t i = 0; i < n; i++) {
		uint64_t h = (uint64_t)(uintptr_t)sites[i].hook;
		if (sites[i].done && h <= hook_ip && hook_ip - h < HOOK_MAX_SIZE &&
		    (!best || h > (uint64_t)(uintptr_t)best->hook))
			best = &sites[i];
	}
	return best;
}

uint64_t patch_wrapper_ip(const struct patch_site *sites, size_t n, uint64_t hook_ip)
{
	const struct patch_site *s = hook_of(sites, n, hook_ip);
	return s ? s->at + s->sys_end : 0;
}

uint64_t patch_wrapper_return_ip(const struct patch_site *sites, size_t n, uint64_t hook_ip)
{
	const struct patch_site *s = hook_of(sites, n, hook_ip);
	return s && s->call_end ? s->at + s->call_end : 0;
}

static struct { const char *near, *bytes; void *to; } extra;

void patch_extra(const char *near, const char *bytes, void *to)
{
	extra.near = near;
	extra.bytes = bytes;
	extra.to = to;
}

int patch_sites(struct patch_site *sites, size_t n)
{
	unsigned char *at[n];
	size_t matched[n];
	int skipped = 0;
	if (!text_start)
		dl_iterate_phdr(find_libc, NULL);
	for (size_t i = 0; i < n; i++) {
		struct patch_site *s = &sites[i];
		const char *name = s->sym ? s->sym : "clone3";
		size_t len = 0;
		/* glibc keeps its clone implementations together */
		at[i] = s->sym ? libc_symbol(s->sym) : search(s->bytes, "clone", 1);
		if (!at[i]) {
			skipped++;
			warn(": not found in libc\n", name);
		} else if ((unsigned long)at[i] < text_start || (unsigned long)at[i] + JUMP_LEN > text_end ||
		           !matches(at[i], s->bytes, &matched[i]) || (len = matched[i]) < JUMP_LEN) {
			skipped++;
			warn(": unexpected entry bytes (unknown glibc build)\n", name);
			at[i] = NULL;
		}
	}
	unsigned char *extra_at = extra.bytes ? search(extra.bytes, extra.near, 0) : NULL;
	/* the jumps in address order, then one write for each page's */
	struct jump { unsigned char *at; void *to; size_t site; } j[n + 1];
	size_t nj = 0;
	for (size_t i = 0; i <= n; i++) {
		unsigned char *a = i < n ? at[i] : extra_at;
		if (!a)
			continue;
		size_t k = nj++;
		for (; k > 0 && j[k - 1].at > a; k--)
			j[k] = j[k - 1];
		j[k] = (struct jump){ a, i < n ? sites[i].hook : extra.to, i };
	}
	static unsigned char buf[SHIM_PAGE + JUMP_LEN];
	struct poker pk;
	int refused = 0;
	poke_begin(&pk);
	for (size_t g = 0, e; g < nj; g = e) {
		uint64_t page = shim_page_down((uint64_t)(uintptr_t)j[g].at);
		for (e = g + 1; e < nj && shim_page_down((uint64_t)(uintptr_t)j[e].at) == page &&
		                j[e].at >= j[e - 1].at + JUMP_LEN; e++)
			;
		size_t span = (size_t)(j[e - 1].at + JUMP_LEN - j[g].at);
		memcpy(buf, j[g].at, span);
		for (size_t k = g; k < e; k++)
			jump_code(buf + (j[k].at - j[g].at), j[k].to);
		/* read before the jumps overwrite the entries */
		for (size_t k = g; k < e; k++)
			if (j[k].site < n) {
				struct patch_site *s = &sites[j[k].site];
				s->sys_end = syscall_end(j[k].at, matched[j[k].site]);
				s->call_end = call_end(j[k].at, s->sys_end);
			}
		if (refused || (refused = poke(&pk, j[g].at, buf, span) < 0)) {
			for (size_t k = g; k < e; k++)
				skipped += j[k].site < n;   /* still libc's: the trap path sees it */
			continue;
		}
		for (size_t k = g; k < e; k++)
			if (j[k].site < n) {
				sites[j[k].site].at = (uint64_t)(uintptr_t)j[k].at;
				sites[j[k].site].done = 1;
			}
	}
	poke_end(&pk);
	if (refused)
		warn(": cannot make libc text writable\n", "libc");
	return skipped;
}

void *patch_libc_symbol(const char *name) { return libc_symbol(name); }
