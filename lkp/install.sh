#!/bin/sh
# lkp/install.sh LKP_SRC - put the vmreplay program into an lkp-tests tree:
# programs/vmreplay as it is here (an older copy there is replaced), and
# the lines of etc/* added to the lists of the same name there (in order
# when the list is sorted), each unless it is there already.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# = 1 ] || { echo "usage: $0 LKP_SRC" >&2; exit 2; }
dst=$1
if [ ! -d "$dst/programs" ] || [ ! -f "$dst/etc/linux-perf-test-cases" ]; then
	echo "$0: $dst: not an lkp-tests tree (no programs/, no etc/linux-perf-test-cases)" >&2
	exit 1
fi
rm -rf "$dst/programs/vmreplay"
cp -R "$here/programs/vmreplay" "$dst/programs/vmreplay"
for f in "$here"/etc/*; do
	list=$dst/etc/${f##*/}
	touch "$list"
	while IFS= read -r line; do
		grep -qxF -- "$line" "$list" && continue
		if LC_ALL=C sort -c "$list" 2>/dev/null; then
			{ cat "$list"; echo "$line"; } | LC_ALL=C sort >"$list.new" && mv "$list.new" "$list"
		else
			echo "$line" >>"$list"
		fi
	done <"$f"
done
echo "vmreplay: installed into $dst (programs/vmreplay, etc/$(cd "$here/etc" && ls | tr '\n' ' ' | sed 's/ $//'))"
