# medians.awk reads `go test -bench` output (any -count) and prints, for
# each benchmark and unit, the median of its values and how many runs gave
# it, one "name<TAB>unit<TAB>median<TAB>runs" line each, in the order seen.
# The -N suffix that go test adds for GOMAXPROCS is dropped from names.
/^Benchmark/ {
	name = $1
	sub(/-[0-9]+$/, "", name)
	for (i = 3; i + 1 <= NF; i += 2) {
		key = name "\t" $(i + 1)
		if (!(key in n)) {
			order[++keys] = key
		}
		vals[key, ++n[key]] = $i
	}
}
END {
	for (k = 1; k <= keys; k++) {
		key = order[k]
		m = n[key]
		for (i = 1; i <= m; i++) {
			a[i] = vals[key, i] + 0
		}
		# insertion sort: a handful of values
		for (i = 2; i <= m; i++) {
			v = a[i]
			for (j = i - 1; j >= 1 && a[j] > v; j--) {
				a[j + 1] = a[j]
			}
			a[j + 1] = v
		}
		if (m % 2) {
			med = a[(m + 1) / 2]
		} else {
			med = (a[m / 2] + a[m / 2 + 1]) / 2
		}
		printf "%s\t%.6g\t%d\n", key, med, m
	}
}
