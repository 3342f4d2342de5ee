#!/bin/sh
# Install the Debian packages named as arguments that are not installed yet.
# As root: apt-get install them.  Otherwise: print the exact command.
missing=
for p in "$@"; do
	s=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	case $s in *"ok installed"*) ;; *) missing="$missing $p" ;; esac
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		{ echo "deps: apt-get install$missing failed" >&2; exit 1; }
else
	echo "deps: missing packages; run as root:" >&2
	echo "  apt-get install$missing" >&2
	exit 1
fi
