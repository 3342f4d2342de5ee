#!/bin/sh
# sim-speed: the simulator beside the kernel (AIM9 brk_test ops/s, target
# >= 20x), memory per live VMA at 10^6 VMAs, and per-op cost for 10^3..10^6
# VMAs (O(log n): the cost grows like log n, not like n).
B=${VMREC_BUILD:-$(dirname "$0")/../../build}
exec "$B/tests/sim/bench.t" --bench
