#!/bin/sh
# Small facts are said once in traces/, lib/, analysis/ and the tests'
# programs that use the trace library: the page size (VMT_PAGE in vmt.h),
# the test of a raw system call result for an error (vmt_raw_failed and
# VMT_MAX_ERRNO in vmt.h), the fallbacks for constants older headers lack
# (lib/compat.h), and the formatter of a message into the caller's
# (err, errlen) buffer (lib/errmsg.c).  shim/ and replay/ (and their
# tests, tests/vm/ and tests/sim/) follow in their own rounds (issue 37).
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
files=$(git ls-files 'traces/*.[ch]' 'lib/*.[ch]' 'analysis/*.[ch]' 2>/dev/null ||
	find traces lib analysis -name '*.[ch]')
ok "$([ -n "$files" ]; echo $?)" "the sources are found"
users=$(grep -lE '#[[:space:]]*include[[:space:]]*"(traces/)?vmt\.h"' \
	$(git ls-files 'tests/*.[ch]' 2>/dev/null || find tests -name '*.[ch]') |
	grep -v -e '^tests/shim/' -e '^tests/replay/' -e '^tests/sim/' -e '^tests/vm/')
ok "$([ -n "$users" ]; echo $?)" "the tests' programs that use the trace library are found"
# the benchmarks' own programs call sbrk(4096) as the benchmarks do, but
# take their fallbacks from lib/compat.h too
bench=$(git ls-files 'tests/bench/*.c' 2>/dev/null || find tests/bench -name '*.c')
# code lines only: comments may quote a benchmark's sbrk(4096)
code() { grep -nHE "$1" $files $users | grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/?\*|//)' || true; }
page_re='(4096|4095).*(page|>> ?12|<< ?12)|(page|>> ?12|<< ?12).*(4096|4095)|[~&][[:space:]]*409[56]|409[56][uUlL]*[[:space:]]*-[[:space:]]*1\b'
raw_re='(>|<)=?[[:space:]]*(\([a-z ]*\))?[[:space:]]*-[[:space:]]*409[56]|-409[56][uUlL]*[[:space:]]*(>|<)'

is "$(code "$page_re")" "" \
	"no page size spelled as a number (VMT_PAGE, VMT_PAGE_SHIFT)"
is "$(code "$raw_re")" "" \
	"no raw result tested for an error by its number (vmt_raw_failed, VMT_MAX_ERRNO)"
fallbacks() {
	for f; do
		awk -v f="$f" '/^[[:space:]]*#[[:space:]]*(ifndef|if[[:space:]]+!defined)/ {
			m = $0; sub(/.*(ifndef|defined)[[:space:](]*/, "", m); sub(/[^A-Za-z0-9_].*/, "", m)
			if (m !~ /_H$/) print f ":" m }' "$f"
	done
}
is "$(fallbacks $(echo "$files" | grep -v '^lib/compat\.h$') $bench)" "" \
	"every #ifndef fallback is in lib/compat.h"
formatters() { grep -nHE 'char \*[a-z_]*, size_t [a-z_]*, const char \*fmt, \.\.\.\)' "$@" || true; }
is "$(formatters $(echo "$files" | grep -v '^lib/errmsg\.[ch]$'))" "" \
	"one (err, errlen, fmt, ...) message formatter (errmsg, lib/errmsg.c)"
# the checks see what they look for
printf 'x = page ? page : 4096;\n/* 4096-byte pages */\nn = (n + 4095) & ~4095ull;\nsbrk(-4096);\n' >"$T/p.c"
printf 'if (r < 0 && r > -4096) e = 1;\nif ((unsigned long)r >= (unsigned long)-4095) e = 1;\nsbrk(-4096);\n' >"$T/r.c"
printf '#ifndef MAP_FIXED\n#define MAP_FIXED 0x10\n#endif\n#ifndef P_H\n#endif\n' >"$T/f.h"
files="$T/p.c" users=
is "$(code "$page_re" | sed "s|$T/||; s|:.*||" | tr '\n' ' ')" "p.c p.c " "the page check sees code, not comments"
files="$T/r.c"
is "$(code "$raw_re" | sed "s|$T/||; s|:\([0-9]*\):.*|:\\1|" | tr '\n' ' ')" "r.c:1 r.c:2 " "the raw-error check sees comparisons, not sbrk(-4096)"
printf 'static int bad(char *err, size_t errlen, const char *fmt, ...)\n' >"$T/e.c"
is "$(formatters "$T/e.c" | sed "s|$T/||")" "e.c:1:static int bad(char *err, size_t errlen, const char *fmt, ...)" \
	"the formatter check sees one"
is "$(fallbacks "$T/f.h" | sed "s|$T/||")" "f.h:MAP_FIXED" "the fallback check sees an #ifndef, not a header guard"
done_testing
