# compare.rb AXIS RESULTS... - lkp-tests' own comparison (lib/compare.rb,
# what `lkp ncompare` runs) of result sets along the job parameter AXIS.
# Each RESULTS is a directory of runs (0/, 1/, ...) with the matrix.json
# that lkp-tests' unite-stats writes beside them, as /lkp/result/... holds
# them; given as paths, so nothing is looked up under /lkp.
LKP_SRC = ENV.fetch('LKP_SRC')
require "#{LKP_SRC}/lib/compare"

axis, *dirs = ARGV
comparer = Compare::Comparer.new
comparer.set_mresult_roots(dirs.map { |d| MResultRoot.new(d) })
        .set_compare_axis_keys([axis])
        .set_use_all_stat_keys(true)
comparer.compare
