#!/bin/sh
# libvmrec.so runs inside the program it records, so what it takes from
# the program's libc is kept to a list, each entry with its reason: a new
# import fails here until someone says why it is safe.  None of libc's
# VMA functions may be among them (the link itself refuses them from
# shim/'s objects: shim/module.mk, SHIM_NOT_LIBC).
. "$(dirname "$0")/../lib.sh"
need_built "$B/lib/libvmrec.so"

# what it may import, and why
allowed='
# string and memory helpers: pure, no allocation, no system call
memchr memcmp memcpy memmem memmove memset stpcpy strcat strchr strcmp
strcpy strlen strncmp strncpy strrchr strstr strtol strtoul strtoull
snprintf strerrordesc_np
# errno and the environment the program was started with
__errno_location environ __environ getenv getauxval
# system call wrappers that change no mapping
clock_gettime close getpid gettid open read write sysinfo uname
gnu_get_libc_version
# thread exits and cancellation (the pthread key that sees a thread end)
pthread_key_create pthread_setspecific pthread_setcanceltype
# finding libc, the patched sites and (with --stacks) libunwind
dl_iterate_phdr dladdr dlopen dlsym
# the trace library default allocator: libvmrec always passes its arena
# (tests/shim/finish-no-malloc.t shows the program sees none of them)
malloc realloc free
# lz4, for the chunks a writer encodes itself (linked into the library
# since issue 33; libvmrec gives it its own state, *_extState, so the
# calloc of the lz4 create functions is never reached)
calloc __stack_chk_fail
LZ4_compressBound LZ4_compress_HC_extStateHC LZ4_compress_fast_extState
LZ4_decompress_safe LZ4_decompress_safe_usingDict LZ4_sizeofState
LZ4_sizeofStateHC
# weak references every shared object built by gcc carries
_ITM_deregisterTMCloneTable _ITM_registerTMCloneTable __cxa_finalize
__gmon_start__
'
printf '%s\n' "$allowed" | grep -v '^#' | tr ' ' '\n' | grep . | sort -u >"$T/allowed"
nm -D --undefined-only "$B/lib/libvmrec.so" | awk '{ print $2 }' | sed 's/@.*//' |
	sort -u >"$T/imports"
ok $? "nm reads libvmrec.so's imports"
[ -s "$T/imports" ]
ok $? "it imports something (lz4 at least)"
extra=$(comm -23 "$T/imports" "$T/allowed" | tr '\n' ' ')
is "$extra" "" "libvmrec.so imports nothing beyond the list"
vm=$(grep -xE 'mmap|mmap64|munmap|mprotect|pkey_mprotect|madvise|posix_madvise|mremap|brk|sbrk|mlock|mlock2|munlock|mlockall|munlockall|shmat|shmdt|remap_file_pages|process_madvise' "$T/imports" | tr '\n' ' ')
is "$vm" "" "none of libc's VMA functions"
done_testing
