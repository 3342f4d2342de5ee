#!/bin/sh
# A test whose build products are missing fails; it does not skip.  Every
# shell test of the suite is run against an empty build directory: each
# must exit non-zero, or skip for a reason that is not the build (a tool
# that is not installed).  tests/build/ is left out: its tests make builds
# of their own; so are the tests NO_PRODUCTS names, which check a part of
# the test suite itself with stand-ins and run nothing built.
NO_PRODUCTS='tests/vm/selftests-reasons.t'
. "$(dirname "$0")/../lib.sh"
mkdir "$T/empty"
cd "$S" || exit 1
find tests -name '*.t' -type f ! -path 'tests/build/*' | sort | grep -vxF "$NO_PRODUCTS" >"$T/list"
n=0
while read -r t; do
	n=$((n + 1))
	# nothing installed or fetched meanwhile; no test may take long here
	VMREC_BUILD=$T/empty VMREC_NO_INSTALL=1 timeout 60 sh "$t" >"$T/out" 2>&1 </dev/null
	st=$?
	skip_line=$(grep -m 1 '^1\.\.0 # SKIP' "$T/out")
	if [ "$st" -ne 0 ] && [ "$st" -ne 124 ]; then
		continue
	elif [ "$st" -eq 0 ] && [ -n "$skip_line" ] &&
		! printf '%s\n' "$skip_line" | grep -Eqi "built|build|$T/empty"; then
		diag "$t: ${skip_line#1..0 # SKIP }"
		continue
	fi
	ok 1 "$t with nothing built: exit $st, ${skip_line:-no skip}"
	sed 's/^/#   /' "$T/out" | tail -n 3
done <"$T/list"
ok 0 "$n shell tests fail without their build products (or skip for a missing tool)"
done_testing
