# Shell helpers of the bench scripts (sourced: `. bench/lib.sh` from the repository root).

# The median of the numbers on standard input, one a line (the mean of the middle two when
# their count is even).
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# The S3 benches' table (bench/s3_throughput.sh, bench/s3_write_phases.sh): its columns, and
# ROWS rows of them as CSV into FILE (`s3_bench_rows ROWS FILE`; the same rows every run).
S3_BENCH_COLS='id BIGINT, n INT, d DOUBLE, s STRING'
s3_bench_rows() {
  awk -v n="$1" 'BEGIN { srand(7); print "id,n,d,s";
    for (i = 0; i < n; i++) printf "%d,%d,%.4f,name-%d\n", i, int(rand() * 1000000), rand() * 1000, int(rand() * 100000000) }' > "$2"
}
