#!/bin/sh
# deps.sh PACKAGE... [--optional PACKAGE...] - install the named Debian
# packages that are not installed yet.  As root: apt-get install them.
# Not root, or VMREC_NO_INSTALL=1 (chroot and distribution builds: install
# nothing): print what is missing.  Exit 1 if a package before --optional
# is still missing; those after it only make their tests skip.
case ${VMREC_NO_INSTALL:-0} in 0) no_install= ;; *) no_install=$VMREC_NO_INSTALL ;; esac
# not Debian: the build and the tests say what they miss
if [ -n "$no_install" ] && ! command -v dpkg-query >/dev/null 2>&1; then
	echo "deps: VMREC_NO_INSTALL=$no_install and no dpkg-query: not checking the packages" >&2
	exit 0
fi
need= want= optional=0
for p in "$@"; do
	[ "$p" = --optional ] && { optional=1; continue; }
	s=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	case $s in
	*"ok installed"*) ;;
	*) if [ $optional = 1 ]; then want="$want $p"; else need="$need $p"; fi ;;
	esac
done
missing=$need$want
[ -z "$missing" ] && exit 0
status=0
[ -n "$need" ] && status=1
if [ -n "$no_install" ]; then
	echo "deps: VMREC_NO_INSTALL=$no_install: not installing$missing" >&2
elif [ "$(id -u)" = 0 ]; then
	echo "deps: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	# another make check (another clone) may be installing at the same
	# time: install waits for dpkg's lock; update's lock on the package
	# lists cannot be waited for, so a refusal for it is tried again
	lock='-o DPkg::Lock::Timeout=900'
	tries=0 err=$(mktemp "${TMPDIR:-/tmp}/vmrec-deps.XXXXXX")
	while ! apt-get $lock update -qq >/dev/null 2>"$err" && grep -q 'lock' "$err" && [ $tries -lt 90 ]; do
		tries=$((tries + 1))
		sleep 10
	done
	rm -f "$err"
	apt-get $lock install -y -qq --no-install-recommends $missing >/dev/null && exit 0
	echo "deps: apt-get install$missing failed" >&2
else
	echo "deps: missing packages; run as root:" >&2
	echo "  apt-get install$missing" >&2
fi
[ -n "$want" ] && echo "deps: without$want, the tests that need them skip" >&2
exit $status
