# vm-setup.sh - sourced by the tests that boot guests: make sure qemu and the
# kernel store are there (installing / fetching them as root), or skip the
# whole test with the reason.  Sets K61 and K612 to the store's releases.
# sanitizers cannot link statically: a sanitized build has no guest programs
need_built "$B/bin/vmreplay"
carries_sanitizer "$B/bin/vmreplay" && skip_all "a sanitized build has no static guest programs"
need_built "$B/bin/vmreplay-static" "$B/bin/vmrec-vminit"
command -v qemu-system-x86_64 >/dev/null 2>&1 ||
	sh "$S/mk/deps.sh" qemu-system-x86 >"$T/deps.log" 2>&1 ||
	skip_all "qemu-system-x86 is not installed and cannot be: $(tail -n 1 "$T/deps.log")"
command -v qemu-system-x86_64 >/dev/null 2>&1 || skip_all "qemu-system-x86_64 not found"

export VMREC_KERNELS=${VMREC_KERNELS:-$B/kernels}
# newest release of a series in the store, as vmreplay --vm resolves it
newest() { ls "$VMREC_KERNELS" 2>/dev/null | grep -E "^$(echo "$1" | sed 's/\./\\./g')[.+-]" | sort -V | tail -n 1; }
K61=$(newest 6.1) K612=$(newest 6.12)
if [ -z "$K61" ] || [ -z "$K612" ]; then
	sh "$S/replay/vm/fetch-kernels.sh" --store "$VMREC_KERNELS" 6.1 6.12 >"$T/kernels.log" 2>&1 ||
		skip_all "Debian's 6.1/6.12 cloud kernels cannot be had: $(tail -n 1 "$T/kernels.log")"
	K61=$(newest 6.1) K612=$(newest 6.12)
fi
