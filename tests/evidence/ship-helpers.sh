#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/evidence/ship-helpers.sh - regenerate core/verify/helpers-shipped.c
# from afalg.c, pcmplay.c and tcploop.c here: the helpers kctui ships and
# compiles without --build-bundle-helpers (unit/hostile checks the two
# agree).
set -eu
cd "$(dirname "$0")/../.."
out=core/verify/helpers-shipped.c
{
	sed -n '1,/^#include "verify.h"$/p' "$out"
	echo
	for f in afalg pcmplay tcploop; do
		echo "static const char helper_$f[] ="
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' \
		    -e 's/	/\\t/g' -e 's/^/	"/' -e 's/$/\\n"/' \
		    "tests/evidence/$f.c"
		echo ';'
		echo
	done
	echo 'const struct verify_helper verify_helpers[] = {'
	for f in afalg pcmplay tcploop; do
		echo "	{ \"$f.c\", helper_$f, sizeof helper_$f - 1 },"
	done
	echo '};'
	echo 'const size_t verify_nhelpers = sizeof verify_helpers / sizeof verify_helpers[0];'
} > "$out.tmp"
mv "$out.tmp" "$out"
