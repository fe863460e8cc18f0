#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/cli.sh - the command line's own promises, on the real Linux
# 6.1 tree with Debian's cloud config and the cloud-vm bundle: output that
# could not be written fails the run with a message (stdout checked at
# exit, as git's close_stdout does), and the usage every command prints
# comes from the one command table (cli/cmd.c), so every option the
# commands take is in it and a bad option prints the table's text.
#
#   KCTUI=/path/to/kctui tests/real/cli.sh
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=tree.sh
. "$here/tree.sh"
kctui_test_setup cli
kctui_need_binary "real/cli$sfx"
kctui_tree_or_fail "real/cli$sfx" "$work/tree.log"
export KCTUI_CACHE_DIR=${KCTUI_CACHE_DIR:-$work/cache}
R() { printf 'real/cli-%s%s' "$1" "$sfx"; }

# full NAME ARGS...: kctui's stdout is /dev/full: exit 1 and the reason
# (kctui's "write error on standard output", or the writer's own).
full() {
	local n=$1 rc; shift
	"$KCTUI" "$@" > /dev/full 2> "$work/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q 'No space left on device' "$work/err"; then
		pass "$(R "full-$n")"
	else
		fail "$(R "full-$n")" "exit $rc; stderr:"
		indent < "$work/err"
	fi
}
full help --help
full version --version
full command-help evidence --help
full evidence -C "$TREE" --config "$DEBIAN_CLOUD" -e "$BUNDLE" evidence
full explain -C "$TREE" --config "$DEBIAN_CLOUD" explain CONFIG_EXT4_FS
full savedefconfig-stdout -C "$TREE" --config "$DEBIAN_CLOUD" savedefconfig /dev/stdout
# And a run whose output went through is still exit 0.
if "$KCTUI" -C "$TREE" --config "$DEBIAN_CLOUD" -e "$BUNDLE" evidence > "$work/ev" 2> "$work/err" &&
   grep -q '^CONFIG_' "$work/ev"; then
	pass "$(R ok-evidence)"
else
	fail "$(R ok-evidence)" "exit non-zero or no output"
	indent < "$work/err"
fi

# Every long option of cli/*.c is in `kctui --help` (the table's text), or
# its one-letter form is: the usage cannot drift from what the commands
# parse. --debug-info is --as-is's first name, kept for old scripts.
"$KCTUI" --help > "$work/help"
missing=
while read -r name letter; do
	[ "$name" = debug-info ] && continue
	grep -q -- "--$name\b" "$work/help" && continue
	[ -n "$letter" ] && grep -q -- "-$letter\b" "$work/help" && continue
	missing+=" --$name"
done < <(sed -n "s/.*{ \"\([a-z0-9-]*\)\", *[a-z_]*_argument, *NULL, *'\(.\)' *}.*/\1 \2/p" \
	"$KCTUI_REPO"/cli/*.c | sort -u)
if [ -z "$missing" ]; then
	pass "$(R usage-has-every-option)"
else
	fail "$(R usage-has-every-option)" "not in kctui --help:$missing"
fi

# A bad option prints the command's usage from the table, the same text
# as COMMAND --help.
for c in evidence collect explain enable need suggest export twin decide verify; do
	"$KCTUI" "$c" --help > "$work/h-$c" 2>&1
	"$KCTUI" -C "$TREE" --config "$DEBIAN_CLOUD" "$c" --no-such-option > /dev/null 2> "$work/e-$c"
	rc=$?
	if [ $rc -ne 0 ] && grep -qxF -f "$work/h-$c" "$work/e-$c" &&
	   [ "$(grep -cxF -f "$work/h-$c" "$work/e-$c")" -eq "$(wc -l < "$work/h-$c")" ]; then
		pass "$(R "bad-option-usage-$c")"
	else
		fail "$(R "bad-option-usage-$c")" "exit $rc; $c --help:"
		indent < "$work/h-$c"
		printf 'a bad option printed:\n' | indent
		indent < "$work/e-$c"
	fi
done

# A writer that waits for another's lock says so after a second, then
# goes on: `decide` while another kctui (here flock(1) on the directory,
# as kctui's own lock is taken) holds it for three seconds.
mkdir -p "$work/lockdir"
cp "$DEBIAN_CLOUD" "$work/lockdir/c.config"
flock "$work/lockdir" sleep 3 &
holder=$!
sleep 0.2
t0=$(date +%s)
"$KCTUI" -C "$TREE" --config "$work/lockdir/c.config" decide CONFIG_X86_MSR \
	keep "kept by hand" > "$work/dec.out" 2> "$work/dec.err"
rc=$?
t1=$(date +%s)
wait "$holder"
if [ $rc -eq 0 ] && grep -q "kctui: waiting for another kctui writing in $work/lockdir" "$work/dec.err" &&
   grep -qx 'CONFIG_X86_MSR keep  # kept by hand' "$work/lockdir/c.config.kctui-decisions" &&
   [ $((t1 - t0)) -ge 2 ]; then
	pass "$(R lock-wait-said)" "($((t1 - t0)) s)"
else
	fail "$(R lock-wait-said)" "exit $rc after $((t1 - t0)) s; stderr:"
	indent < "$work/dec.err"
fi
# Not held: nothing said.
"$KCTUI" -C "$TREE" --config "$work/lockdir/c.config" decide CONFIG_X86_MSR \
	forget > /dev/null 2> "$work/dec.err"
if [ $? -eq 0 ] && ! grep -q waiting "$work/dec.err"; then
	pass "$(R lock-free-quiet)"
else
	fail "$(R lock-free-quiet)" "stderr:"
	indent < "$work/dec.err"
fi

# Issue 35 item 10, the command line's smaller promises.
# An x86_64 bundle on an arm64 config: said, and suggest/export refuse
# (a list or a file made of evidence that cannot speak for the config)
# unless --any-arch; explain says it and goes on. The arm64 config is the
# tree's own arm64 defconfig, made by kctui's defconfig.
arm=$work/arm64.config
"$KCTUI" -C "$TREE" --config "$arm" ARCH=arm64 defconfig > /dev/null 2> "$work/arm.err" ||
	{ fail "$(R arch-setup)" "ARCH=arm64 defconfig failed:"; indent < "$work/arm.err"; }
"$KCTUI" -C "$TREE" --config "$arm" ARCH=arm64 suggest -e "$BUNDLE" > "$work/arm.out" 2> "$work/arm.err"
rc=$?
if [ $rc -ne 0 ] && grep -q "cloud-vm was recorded on x86_64 (x86), the configuration is for arm64" "$work/arm.err" &&
   grep -q -- "--any-arch" "$work/arm.err" && ! grep -q candidate "$work/arm.out"; then
	pass "$(R arch-suggest-refused)"
else
	fail "$(R arch-suggest-refused)" "exit $rc; stderr:"
	indent < "$work/arm.err"
fi
"$KCTUI" -C "$TREE" --config "$arm" ARCH=arm64 export -e "$BUNDLE" -o "$work/arm.out.config" > /dev/null 2> "$work/arm.err"
rc=$?
if [ $rc -ne 0 ] && [ ! -e "$work/arm.out.config" ] && grep -q "recorded on x86_64" "$work/arm.err"; then
	pass "$(R arch-export-refused)"
else
	fail "$(R arch-export-refused)" "exit $rc; stderr:"
	indent < "$work/arm.err"
fi
# Read without ARCH=arm64: the config's own heading says arm64.
"$KCTUI" -C "$TREE" --config "$arm" suggest -e "$BUNDLE" > /dev/null 2> "$work/arm.err"
rc=$?
if [ $rc -ne 0 ] && grep -q "arm64.config is a configuration for arm64, read here as x86" "$work/arm.err"; then
	pass "$(R arch-config-heading)"
else
	fail "$(R arch-config-heading)" "exit $rc; stderr:"
	indent < "$work/arm.err"
fi
"$KCTUI" -C "$TREE" --config "$arm" ARCH=arm64 suggest -e "$BUNDLE" --any-arch > "$work/arm.out" 2> "$work/arm.err"
rc=$?
if [ $rc -eq 0 ] && grep -q "warning: .*recorded on x86_64" "$work/arm.err" && grep -q candidate "$work/arm.out"; then
	pass "$(R arch-any-arch)"
else
	fail "$(R arch-any-arch)" "exit $rc; stderr:"
	indent < "$work/arm.err"
fi
"$KCTUI" -C "$TREE" --config "$arm" ARCH=arm64 explain EXT4_FS -e "$BUNDLE" > "$work/arm.out" 2> "$work/arm.err"
rc=$?
if [ $rc -eq 0 ] && grep -q "warning: .*recorded on x86_64" "$work/arm.err" && grep -q '^Value:' "$work/arm.out"; then
	pass "$(R arch-explain-warns)"
else
	fail "$(R arch-explain-warns)" "exit $rc; stderr:"
	indent < "$work/arm.err"
fi
# The x86 bundle on the x86 config: nothing said.
"$KCTUI" -C "$TREE" --config "$DEBIAN_CLOUD" explain EXT4_FS -e "$BUNDLE" > /dev/null 2> "$work/arm.err"
if [ $? -eq 0 ] && ! grep -q "recorded on" "$work/arm.err"; then
	pass "$(R arch-same-quiet)"
else
	fail "$(R arch-same-quiet)" "stderr:"
	indent < "$work/arm.err"
fi

# export's usage says what no --accept does.
"$KCTUI" export --help > "$work/h-export"
if grep -q "without --accept every subsystem's" "$work/h-export"; then
	pass "$(R export-help-accept-all)"
else
	fail "$(R export-help-accept-all)" "export --help:"
	indent < "$work/h-export"
fi

# -e after the command, as suggest and export take it: explain too.
"$KCTUI" -C "$TREE" --config "$DEBIAN_CLOUD" explain EXT4_FS -e "$BUNDLE" > "$work/ex-e.out" 2> "$work/ex-e.err"
rc=$?
"$KCTUI" -C "$TREE" --config "$DEBIAN_CLOUD" -e "$BUNDLE" explain EXT4_FS > "$work/ex-e0.out" 2> /dev/null
if [ $rc -eq 0 ] && cmp -s "$work/ex-e.out" "$work/ex-e0.out" && grep -qi "evidence\|seen\|used" "$work/ex-e.out"; then
	pass "$(R explain-e-after)"
else
	fail "$(R explain-e-after)" "exit $rc; stderr:"
	indent < "$work/ex-e.err"
	diff "$work/ex-e0.out" "$work/ex-e.out" | indent
fi

# need takes -e after the command too (the same answer as before it).
"$KCTUI" -C "$TREE" --config "$DEBIAN_CLOUD" need -e "$BUNDLE" > "$work/need-e.out" 2> "$work/need-e.err"
rc=$?
"$KCTUI" -C "$TREE" --config "$DEBIAN_CLOUD" -e "$BUNDLE" need > "$work/need-e0.out" 2> /dev/null
if [ $rc -eq 0 ] && cmp -s "$work/need-e.out" "$work/need-e0.out"; then
	pass "$(R need-e-after)"
else
	fail "$(R need-e-after)" "exit $rc; stderr:"
	indent < "$work/need-e.err"
fi

# decide: a misspelled option gets the names explain would suggest.
cp "$DEBIAN_CLOUD" "$work/lockdir/d.config"
"$KCTUI" -C "$TREE" --config "$work/lockdir/d.config" decide CONFIG_EXT4_FSS keep > /dev/null 2> "$work/dec.err"
rc=$?
if [ $rc -ne 0 ] && grep -q "CONFIG_EXT4_FSS is not an option of .*(did you mean EXT4_FS" "$work/dec.err" &&
   [ ! -e "$work/lockdir/d.config.kctui-decisions" ]; then
	pass "$(R decide-did-you-mean)"
else
	fail "$(R decide-did-you-mean)" "exit $rc; stderr:"
	indent < "$work/dec.err"
fi

# explain names the file the user's values are in.
cp "$DEBIAN_CLOUD" "$work/c1"
"$KCTUI" -C "$TREE" --config "$work/c1" explain EXT4_FS > "$work/ex-c1.out" 2>&1
if grep -q "set by you in c1\." "$work/ex-c1.out" && ! grep -q "\.config" "$work/ex-c1.out"; then
	pass "$(R explain-names-config)"
else
	fail "$(R explain-names-config)" "explain EXT4_FS:"
	indent < "$work/ex-c1.out"
fi
