# Shared helpers for tests/kconfig/regen.sh and tests/kconfig/run.sh.
# Sourced, not executed.

# case_mode_args CASEDIR -> sets MODE, ARG, OUTFILE, GOLDEN
#   cmd file: first word is the mode, optional second word the argument.
#   savedefconfig without an argument writes out.defconfig.
case_mode_args() {
	local words
	read -r -a words < "$1/cmd"
	MODE=${words[0]}
	ARG=${words[1]:-}
	case $MODE in
	savedefconfig)
		[ -n "$ARG" ] || ARG=out.defconfig
		OUTFILE=$ARG
		GOLDEN=expected.defconfig ;;
	defconfig)
		OUTFILE=out.config
		GOLDEN=expected.config ;;
	olddefconfig|alldefconfig|allnoconfig|allyesconfig|allmodconfig)
		ARG=
		OUTFILE=out.config
		GOLDEN=expected.config ;;
	*)
		echo "bad mode '$MODE' in $1/cmd" >&2
		return 1 ;;
	esac
}

# case_env CASEDIR -> prints NAME=value words for env(1), one per line.
# Blank lines and lines starting with # are skipped.
case_env_array() {
	CASE_ENV=()
	[ -f "$1/env" ] || return 0
	local line
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in ''|'#'*) continue ;; esac
		CASE_ENV+=("$line")
	done < "$1/env"
}

# prepare_tmp CASEDIR TMPDIR: copy the case inputs (not the goldens) and
# seed out.config from input.config.
prepare_tmp() {
	cp -a "$1/." "$2/"
	rm -f "$2"/expected.* "$2"/NOTES
	if [ -f "$2/input.config" ]; then
		cp "$2/input.config" "$2/out.config"
	fi
}

# run_clean TMPDIR CMD...: run CMD in TMPDIR with a minimal, hermetic
# environment plus the case's env lines (CASE_ENV).
run_clean() {
	local dir=$1; shift
	( cd "$dir" && env -i PATH="$PATH" HOME="$dir" LC_ALL=C \
		"${CASE_ENV[@]}" timeout 30 "$@" ) > "$dir/.stdout" 2> "$dir/.stderr"
}

# first_location STDERRFILE -> prints the file:line of conf's first error
# line: the first line with a leading "file:line" that mentions "error",
# else the first line with a leading "file:line". Skipped: locations whose
# file is "<none>" (bison's end-of-input position) and bison's generic
# "syntax error" line, whose line number is that of the parser's lookahead
# token (statement line + 1), not of the faulty statement; conf's next
# line ("invalid statement", "unknown statement ...") names the statement,
# and that is the location kctui must give.
first_location() {
	local loc
	loc=$(grep -E '^[^: ]+:[0-9]+' "$1" | grep -v '^<none>:' |
		grep -vE '^[^: ]+:[0-9]+: syntax error$' |
		grep -iE '^[^: ]+:[0-9]+.*error' | head -1 | grep -oE '^[^:]+:[0-9]+')
	[ -n "$loc" ] || loc=$(grep -E '^[^: ]+:[0-9]+' "$1" | grep -v '^<none>:' |
		grep -vE '^[^: ]+:[0-9]+: syntax error$' |
		head -1 | grep -oE '^[^:]+:[0-9]+')
	printf '%s' "$loc"
}

list_cases() {
	local here=$1; shift
	if [ $# -gt 0 ]; then
		local c
		for c in "$@"; do echo "${c#kconfig/}"; done
	else
		( cd "$here" && for d in */; do [ -f "$d/cmd" ] && echo "${d%/}"; done )
	fi
}
