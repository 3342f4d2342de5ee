# tests/lib.sh - TAP helpers for shell tests.  Source it:
#   . "$(dirname "$0")/../lib.sh"
# then ok/is/need_built/skip_all/done_testing.  diag and what a failed
# is/like/is_file got go to stderr, which prove shows (a CI log then says
# why a test failed); note goes to stdout, which prove shows only with -v.  $B is the build dir, $S
# the source dir, $T a private temporary directory removed at exit.

S=${VMREC_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${VMREC_BUILD:-$S/build}
T=$(mktemp -d "${TMPDIR:-/tmp}/vmrec-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
_n=0 _failed=0

# ok CONDITION-STATUS NAME : ok $? "name" or: cmd; ok $? "name"
ok() {
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $_n - $2"
	else echo "not ok $_n - $2"; _failed=$((_failed + 1)); fi
}
# is GOT WANT NAME
is() {
	if [ "$1" = "$2" ]; then ok 0 "$3"
	else ok 1 "$3"; printf '#   got:  %s\n#   want: %s\n' "$1" "$2" >&2; fi
}
# like GOT REGEX NAME : GOT matches the extended regular expression
like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then ok 0 "$3"
	else ok 1 "$3"; printf '#   got:  %s\n#   want: /%s/\n' "$1" "$2" >&2; fi
}
# is_file GOT_FILE WANT_FILE NAME : compare files, show the diff on failure
is_file() {
	if diff -u "$2" "$1" >"$T/.diff" 2>&1; then ok 0 "$3"
	else ok 1 "$3"; sed 's/^/# /' "$T/.diff" | head -40 >&2; fi
}
# skip REASON : one test that could not run here, counted as skipped
skip() { _n=$((_n + 1)); echo "ok $_n # skip $*"; }
# diag TEXT : why something failed (stderr); note TEXT : what was measured
diag() { printf '# %s\n' "$*" | sed '2,$s/^/# /' >&2; }
note() { printf '# %s\n' "$*" | sed '2,$s/^/# /'; }
# skip_all REASON : nothing here can run (a missing external tool, a
# sanitizer build) - never for a missing build product: see need_built
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
# fail_all REASON : the test cannot go on; one failure, the plan, exit 1
fail_all() { ok 1 "$*"; echo "1..$_n"; exit 1; }
# need_built FILE... : build products this test runs; one missing is a
# failure, not a skip (a build that forgot them must not pass)
need_built() {
	for _f; do
		case $_f in
		*.a | *.so | *.so.*) [ -f "$_f" ] ;;
		*) [ -f "$_f" ] && [ -x "$_f" ] ;;
		esac || fail_all "$_f is not built (make all tests, or make check)"
	done
}
# carries_asan PROGRAM : it was built with AddressSanitizer (make asan)
carries_asan() { ldd "$1" 2>/dev/null | grep -q libasan; }
# carries_sanitizer PROGRAM : built with any sanitizer runtime (SANITIZE=...)
carries_sanitizer() { ldd "$1" 2>/dev/null | grep -Eq 'lib(asan|ubsan|tsan|lsan)'; }
done_testing() { echo "1..$_n"; [ "$_failed" -eq 0 ]; }
