# Shell helpers of the bench scripts (sourced: `. bench/lib.sh` from the repository root).

# The median of the numbers on standard input, one a line (the mean of the middle two when
# their count is even).
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
