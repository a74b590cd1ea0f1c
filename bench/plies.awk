# plies.awk counts the plies of PGN-family record files, the same way for
# icepost's records and for chess PGN: every word of movetext that is not a
# move number ("12." or "12..."), a result ("1-0", "1/2-1/2", "0-1-0", "*")
# or an annotation ("$1"). Neither side writes comments or variations in the
# bench corpora, so those are not handled. Tag lines and '%' lines are
# skipped. Prints "games plies".
/^\[/ {
	if ($1 == "[Event") {
		games++
	}
	next
}
/^%/ { next }
{
	for (i = 1; i <= NF; i++) {
		c = substr($i, 1, 1)
		if (c ~ /[0-9*$]/) {
			continue
		}
		plies++
	}
}
END { printf "%d %d\n", games, plies }
