#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/tui/report-diff.sh INPUT OUTPUT REPORT.md - check that an export's
# report is the difference between the input configuration and the file
# written: every option whose line differs is named in the report (as
# removed, dragged along, another change or the tree's update), with the
# two values the files hold when the report shows them, and no option the
# files agree on is. Reads the files only (not kctui's own diff): a line
# "# CONFIG_X is not set" and no line at all are the same value (n) for
# an option the other file sets to y, m or n, as conf reads them.
# Prints what is wrong and exits 1, or how many options differ.
set -u
in=$1 out=$2 report=$3

# NAME VALUE for each option line of a config ("n" for "is not set").
values() {
	sed -nE -e 's/^CONFIG_([A-Za-z0-9_]+)=(.*)$/\1 \2/p' \
		-e 's/^# CONFIG_([A-Za-z0-9_]+) is not set$/\1 n/p' "$1"
}

# The report's entries, NAME WAS NOW ("-" when it does not show them),
# from every section that lists changes (not the kept options nor the
# decisions, which name options the files agree on).
entries() {
	awk '
	/^## Kept beyond a module list/ || /^## Decisions honoured/ { skip = 1; next }
	/^## / { skip = 0; next }
	skip { next }
	# A value at the start of s: a quoted string, "(no line)" or a
	# word; the rest of s after it in rest.
	function value(s) {
		if (match(s, /^"([^"\\]|\\.)*"/) || match(s, /^\(no line\)/) ||
		    match(s, /^[^ ]+/)) {
			rest = substr(s, RLENGTH + 1)
			return substr(s, 1, RLENGTH)
		}
		rest = s
		return ""
	}
	/^- `CONFIG_[A-Za-z0-9_]+`: / {
		# - `CONFIG_X`: WAS -> NOW (why)
		line = $0
		sub(/^- `CONFIG_/, "", line)
		name = line; sub(/`.*/, "", name)
		sub(/^[A-Za-z0-9_]+`: /, "", line)
		was = value(line)
		sub(/^ -> /, "", rest)
		now = value(rest)
		print name, was, now
		next
	}
	/^- `CONFIG_[A-Za-z0-9_]+` \(/ || /^  - dragged along: `CONFIG_[A-Za-z0-9_]+`/ {
		line = $0
		sub(/^.*`CONFIG_/, "", line)
		name = line; sub(/`.*/, "", name)
		print name, "-", "-"
	}' "$report"
}

awk -v inf=<(values "$in") -v outf=<(values "$out") -v repf=<(entries) '
function tri(v) { return v == "y" || v == "m" || v == "n" }
BEGIN {
	while ((getline l < inf) > 0) {
		n = index(l, " "); k = substr(l, 1, n - 1)
		a[k] = substr(l, n + 1); names[k] = 1
	}
	while ((getline l < outf) > 0) {
		n = index(l, " "); k = substr(l, 1, n - 1)
		b[k] = substr(l, n + 1); names[k] = 1
	}
	while ((getline l < repf) > 0) {
		split(l, f, " ")
		k = f[1]
		# WAS and NOW may hold blanks (strings): cut at " -> " above.
		rest = substr(l, length(k) + 2)
		if (rest != "- -") { rw[k] = rest }
		rep[k]++
	}
	bad = 0
	for (k in names) {
		va = (k in a) ? a[k] : ""; vb = (k in b) ? b[k] : ""
		if (va == "" && tri(vb)) va = "n"
		if (vb == "" && tri(va)) vb = "n"
		if (va == vb) {
			if (k in rep) { print "in the report, same in both files: CONFIG_" k " (" va ")"; bad = 1 }
			continue
		}
		ndiff++
		if (!(k in rep)) { print "not in the report: CONFIG_" k " (" va " -> " vb ")"; bad = 1; continue }
		if (k in rw) {
			want = (va == "" ? "(no line)" : va) " " (vb == "" ? "(no line)" : vb)
			if (rw[k] != want) { print "CONFIG_" k ": the report says " rw[k] ", the files " want; bad = 1 }
		}
	}
	for (k in rep)
		if (!(k in names)) { print "in the report, in neither file: CONFIG_" k; bad = 1 }
	if (!bad)
		print ndiff " options differ, each in the report, nothing else"
	exit bad
}'
