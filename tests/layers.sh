#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/layers.sh - the layers README.md's Layout draws, checked on every
# #include "..." of the sources: lib -> kconfig-parser -> core's folders
# (kbuild, srcindex, machine -> evidence -> explain, trim, collect ->
# twin, verify, profile) -> core's top (session, worker, verify-session) -> tui
# -> cli (main() opens the browser). A file may include its own folder and the layers below it, never
# one beside or above it. Prints one PASS/FAIL line per folder
# (tests/lib.sh) and the offending includes.
#
#   tests/layers.sh            (from anywhere in the repository)
set -u

cd "$(dirname "$0")/.." || exit 1
# shellcheck source=lib.sh
. tests/lib.sh

# The rank of a folder: a file may include only lower ranks and its own.
rank() {
	case $1 in
	lib) echo 0 ;;
	kconfig-parser) echo 1 ;;
	core/kbuild|core/srcindex|core/machine) echo 2 ;;
	core/evidence) echo 3 ;;
	core/explain|core/trim|core/collect) echo 4 ;;
	core/twin|core/verify|core/profile) echo 5 ;;
	core) echo 6 ;;
	tui) echo 7 ;;
	cli) echo 8 ;;	# main() is here: it opens the browser
	*) echo "" ;;
	esac
}

declare -A bad=() seen=()
while IFS= read -r f; do
	dir=$(dirname "$f")
	r=$(rank "$dir")
	seen[$dir]=1
	if [ -z "$r" ]; then
		bad[$dir]+="  $f: a folder the layers do not name (tests/layers.sh)"$'\n'
		continue
	fi
	while IFS= read -r inc; do
		t=$(realpath -m --relative-to=. "$dir/$inc")
		[ -e "$t" ] || continue
		tdir=$(dirname "$t")
		[ "$tdir" = "$dir" ] && continue
		tr=$(rank "$tdir")
		if [ -z "$tr" ] || [ "$tr" -ge "$r" ]; then
			bad[$dir]+="  $f includes $t (${tdir}: not below ${dir})"$'\n'
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(git ls-files -- 'lib/*.[ch]' 'kconfig-parser/*.[ch]' 'core/*.[ch]' \
	'cli/*.[ch]' 'tui/*.[ch]')

for d in $(printf '%s\n' "${!seen[@]}" | sort); do
	if [ -z "${bad[$d]:-}" ]; then
		pass "layers/$d"
	else
		fail "layers/$d" "includes a layer beside or above it:"
		printf '%s' "${bad[$d]}"
	fi
done
[ ${#bad[@]} -eq 0 ]
