#!/bin/bash
# Regenerate the goldens of tests/kconfig/<case>/ by running the Linux
# kernel's own scripts/kconfig/conf (the oracle) on each case.
#
#   tests/kconfig/regen.sh [CASE...]      (default: every case)
#
# CONF  path of the kernel's conf binary
#       (default /var/cache/kctui/linux-source-6.1/scripts/kconfig/conf)
#
# Per case it writes:
#   expected.status   conf's exit code
#   expected.config   the written config (status 0, config-writing modes)
#   expected.defconfig  the written defconfig (status 0, savedefconfig)
#   expected.stderr   conf's stderr, when non-empty
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
CONF=${CONF:-/var/cache/kctui/linux-source-6.1/scripts/kconfig/conf}
[ -x "$CONF" ] || { echo "regen.sh: conf not found at $CONF" >&2; exit 2; }

rc=0
for c in $(list_cases "$here" "$@"); do
	d=$here/$c
	[ -f "$d/cmd" ] || { echo "no case $c" >&2; rc=1; continue; }
	case_mode_args "$d" || { rc=1; continue; }
	case_env_array "$d"
	tmp=$(mktemp -d)
	prepare_tmp "$d" "$tmp"
	case $MODE in
	savedefconfig|defconfig) args=("--$MODE" "$ARG") ;;
	*) args=("--$MODE") ;;
	esac
	run_clean "$tmp" env KCONFIG_CONFIG=out.config "$CONF" "${args[@]}" Kconfig
	st=$?
	rm -f "$d"/expected.*
	echo "$st" > "$d/expected.status"
	if [ "$st" -eq 0 ]; then
		if [ -f "$tmp/$OUTFILE" ]; then
			cp "$tmp/$OUTFILE" "$d/$GOLDEN"
		else
			echo "regen.sh: $c: conf exited 0 but wrote no $OUTFILE" >&2
			rc=1
		fi
	fi
	[ -s "$tmp/.stderr" ] && cp "$tmp/.stderr" "$d/expected.stderr"
	echo "regen kconfig/$c: status $st"
	rm -rf "$tmp"
done
exit $rc
