#!/bin/bash
# Run kctui against the conf-generated goldens in tests/kconfig/<case>/.
#
#   tests/kconfig/run.sh [CASE...]        (default: every case)
#
# KCTUI       path of the kctui binary (default: ./kctui at the repo root;
#             a relative path is tried from the cwd, then the repo root)
# KCTUI_ARGS  extra options put before the mode (e.g. --no-cache), optional
#
# For each case the directory is copied to a temp dir, input.config (if
# any) is copied to out.config, and
#     $KCTUI --kconfig Kconfig --config out.config MODE [ARG]
# is run there with a clean environment plus the case's env file.
# Checks:
#   - exit status: zero vs non-zero must match expected.status;
#   - status 0: out.config (or the savedefconfig output file) must be
#     byte-identical to expected.config / expected.defconfig;
#   - status != 0: kctui's stderr must contain the file:line location of
#     conf's first error line (from expected.stderr), if it had one.
# Prints "PASS kconfig/<case>" or "FAIL kconfig/<case>" plus details;
# exits non-zero if any case failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/lib.sh"
KCTUI=${KCTUI:-$root/kctui}
# A relative KCTUI is taken from the current directory if it exists there,
# else from the repo root.
case $KCTUI in
/*) ;;
*)	if [ -e "$KCTUI" ]; then base=$PWD; else base=$root; fi
	KCTUI=$(cd "$base" && cd "$(dirname "$KCTUI")" 2>/dev/null && pwd)/$(basename "$KCTUI") ;;
esac
read -r -a extra <<< "${KCTUI_ARGS:-}"
[ -x "$KCTUI" ] || { echo "run.sh: kctui not found/executable at $KCTUI" >&2; exit 2; }

pass=0 fail=0 failed=()
for c in $(list_cases "$here" "$@"); do
	d=$here/$c
	if [ ! -f "$d/cmd" ] || [ ! -f "$d/expected.status" ]; then
		echo "FAIL kconfig/$c"; echo "  missing cmd or expected.status"
		fail=$((fail+1)); failed+=("$c"); continue
	fi
	case_mode_args "$d" || { echo "FAIL kconfig/$c"; fail=$((fail+1)); failed+=("$c"); continue; }
	case_env_array "$d"
	tmp=$(mktemp -d)
	prepare_tmp "$d" "$tmp"
	[ "$MODE" = savedefconfig ] && rm -f "$tmp/$OUTFILE"
	args=("$MODE"); [ -n "$ARG" ] && args+=("$ARG")
	run_clean "$tmp" "$KCTUI" "${extra[@]}" --kconfig Kconfig --config out.config "${args[@]}"
	st=$?
	exp=$(cat "$d/expected.status")
	why=
	if [ "$exp" -eq 0 ] && [ "$st" -ne 0 ]; then
		why="exit status $st, expected 0"
	elif [ "$exp" -ne 0 ] && [ "$st" -eq 0 ]; then
		why="exit status 0, expected non-zero ($exp)"
	elif [ "$exp" -eq 0 ]; then
		if [ ! -f "$tmp/$OUTFILE" ]; then
			why="no output file $OUTFILE"
		elif ! cmp -s "$d/$GOLDEN" "$tmp/$OUTFILE"; then
			why="$OUTFILE differs from $GOLDEN"
			diffout=$(diff -u "$d/$GOLDEN" "$tmp/$OUTFILE" | head -30)
		fi
	else
		loc=
		[ -f "$d/expected.stderr" ] && loc=$(first_location "$d/expected.stderr")
		if [ -n "$loc" ]; then
			re=$(printf '%s' "$loc" | sed 's/[][\.*^$+?(){}|/]/\\&/g')
			if ! grep -qE "(^|[^A-Za-z0-9_./-])${re}([^0-9]|\$)" "$tmp/.stderr"; then
				why="stderr lacks location $loc"
			fi
		fi
	fi
	if [ -z "$why" ]; then
		echo "PASS kconfig/$c"; pass=$((pass+1))
	else
		echo "FAIL kconfig/$c"; fail=$((fail+1)); failed+=("$c")
		echo "  $why"
		case $why in
		*differs*) printf '%s\n' "$diffout" | sed 's/^/  /' ;;
		*)
			if [ -s "$tmp/.stderr" ]; then
				echo "  kctui stderr:"; head -10 "$tmp/.stderr" | sed 's/^/    /'
			fi
			if [ -f "$d/expected.stderr" ]; then
				echo "  conf stderr:"; head -10 "$d/expected.stderr" | sed 's/^/    /'
			fi ;;
		esac
	fi
	rm -rf "$tmp"
done
echo "kconfig: $pass passed, $fail failed"
[ $fail -eq 0 ] || { printf 'failed: %s\n' "${failed[*]}"; exit 1; }
exit 0
