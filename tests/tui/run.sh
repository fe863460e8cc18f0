#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/tui/run.sh - end-to-end tests of the interactive browser: the real
# binary in a private tmux server (100x30, screen-256color, C.UTF-8),
# driven with send-keys, its screens compared with golden files
# (tests/tui/golden/*.txt; temporary paths shown as @TMP@), and the
# configuration it saves compared with what `kctui olddefconfig` makes of
# the same change (kctui olddefconfig is byte-identical to the kernel's
# conf on this tree: tests/real/compare.sh).
#
# Two scenarios: the small fixture tree (tests/tui/fixture), and Linux
# 6.1 with Debian's cloud config and the cloud-vm evidence bundle.
# KCTUI_TUI_UPDATE=1 rewrites the goldens; KCTUI_TUI_ONLY="SCENARIO..."
# runs some only (the function names at the end).
set -u

if [ "${KCTUI_TUI_UPDATE:-}" = 1 ] && [ -n "${CI:-}" ]; then
	echo "tests/tui/run.sh: KCTUI_TUI_UPDATE=1 rewrites the goldens it compares; refused under CI" >&2
	exit 1
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
# shellcheck source=tmux.sh
. "$here/tmux.sh"
# shellcheck source=../real/tree.sh
. "$here/../real/tree.sh"
kctui_clean_env
unset NO_COLOR KCTUI_THEME

kctui_binary
sfx=$(flavor_suffix)
GOLDEN=$here/golden
# Directly under /tmp, whatever KCTUI_TMP is: the paths shown on the
# screen (questions, warnings) then have one length, whether the group
# runs alone or under tests/run.sh, and wrap at the same column.
work=$(mktemp -d /tmp/tui.XXXXXX)
# At 80 columns the title holds the config's path: one of a fixed
# length (shown as @TMP80@) keeps it from being cut at varying places.
work80=$(mktemp -d /tmp/kc80.XXXXXX)
trap 'tui_stop; rm -rf "$work" "$work80"' EXIT
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config
mkdir -p "$HOME"

# screen NAME: compare the screen with golden/NAME.txt
screen() {
	local n=$1 out=$work/$1.txt
	# The temporary directory's name varies in length: where it shows,
	# so does the padding after it.
	# The tree's path too, and a message about it is cut where the
	# terminal ends.
	tui_screen | sed "s|$work80|@TMP80@|g; s|$work|@TMP@|g; /@TMP@/s/   */  /g; s|$TREE|@TREE@|g" |
		sed 's/\(is not clean for an out-of-tree build\).*/\1 .../' > "$out"
	if [ "${KCTUI_TUI_UPDATE:-}" = 1 ]; then
		# Rewriting a golden is a person's act, read in a diff before a
		# commit: never under CI, where it would compare a file with itself.
		mkdir -p "$GOLDEN"
		cp "$out" "$GOLDEN/$n.txt"
		# Not a pass: nothing was compared.
		printf 'golden rewritten: %s\n' "$GOLDEN/$n.txt"
		return 0
	fi
	same_file "tui/screen-$n$sfx" "$GOLDEN/$n.txt" "$out"
}

# step NAME TEXT [-t SECONDS] KEYS...: send keys, wait up to SECONDS
# (default 30) for TEXT, then for the screen to settle.
step() {
	local n=$1 text=$2 secs=30; shift 2
	if [ "${1:-}" = -t ]; then
		secs=$2
		shift 2
	fi
	[ $# -gt 0 ] && tui_keys "$@"
	if ! tui_wait "$text" "$secs" || ! tui_settle; then
		fail "tui/$n$sfx" "timed out after ${secs}s waiting for: $text"
		tui_screen | indent
		return 1
	fi
	return 0
}

# down_to NAME TEXT: Down until TEXT is on the screen (at most 40).
down_to() {
	local n=$1 text=$2 i
	for ((i = 0; i < 40; i++)); do
		tui_settle
		tui_screen | grep -qF -- "$text" && return 0
		tui_keys Down
	done
	fail "tui/$n$sfx" "not found going down: $text"
	tui_screen | indent
	return 1
}

# -------------------------------------------------------------- fixture
fixture() {
	local d=$work/fx fx=$here/fixture
	mkdir -p "$d"
	cp "$fx/config" "$d/.config"
	tui_start "$fx" "$KCTUI" --config "$d/.config"
	step fx-start "Main menu" || return
	screen fx-main
	# F1: the key list, made from the key table; one Esc closes it.
	step fx-keys "Keys (F1; ? where there is no option help):" F1 || return
	screen fx-keys
	step fx-keys-close "Main menu" Escape || return
	# z shows invisible options as mconf's does; z again hides them.
	step fx-z "[show-all]" z || return
	tui_keys z
	if tui_wait_gone "[show-all]" 10; then
		pass "tui/fx-z$sfx"
	else
		fail "tui/fx-z$sfx" "z did not turn show-all off again"
	fi
	# A key that is none says so.
	step fx-unknown "x: no key, nor a line starting with it (F1 lists the keys)" x ||
		return
	# Into "General setup", swap off: ZSWAP (depends on SWAP) goes.
	step fx-open "Main menu › General setup" Down Enter || return
	screen fx-general
	step fx-toggle "modified" Down Down n || return
	if tui_screen | grep -q "Compressed cache"; then
		fail "tui/fx-depends$sfx" "ZSWAP still shown with SWAP=n"
	else
		pass "tui/fx-depends$sfx"
	fi
	screen fx-swap-off
	# An int with its range check.
	step fx-int "(int):" Up Enter || return
	tui_keys C-u 99 Enter
	step fx-range "not in the range 12..25" || return
	step fx-int2 "(int):" Enter || return
	tui_keys C-u 18 Enter
	step fx-int-set "(18) Kernel log" || return
	# The choice is a radio list.
	step fx-choice "Optimize for size" End Up Up Enter || return
	screen fx-choice
	# Enter picks and closes the radio list, as mconf's (issue 35).
	step fx-choice-set "(Optimize for size (-Os))" Down Enter || return
	if [ "$(tui_screen | sed -n 2p)" = " Main menu › General setup" ]; then
		pass "tui/fx-choice-enter-closes$sfx"
	else
		fail "tui/fx-choice-enter-closes$sfx" "the radio list stayed open"
		tui_screen | head -n 3 | indent
	fi
	# Help.
	step fx-help "Symbol: LOG_BUF_SHIFT" Home Down '?' || return
	screen fx-help
	# / in help finds text, n the next line with it, N the previous
	# (less), on a page too short to scroll too.
	step fx-help-find "Find on this page:" / || return
	tui_keys log Enter
	step fx-help-find1 "/log: line 8" || return
	step fx-help-find-n "/log: line 10" n || return
	step fx-help-find-N "/log: line 8" N || return
	pass "tui/fx-help-find-next-previous$sfx"
	step fx-help-close "General setup" Escape || return
	# q closes the submenu: back at the main menu, still running.
	tui_keys q
	if tui_wait_gone "Main menu › General setup" 10 && tui_settle &&
	   [ "$(tui_screen | sed -n 2p)" = " Main menu" ] &&
	   ! tui_screen | grep -q "exited"; then
		pass "tui/fx-q-closes$sfx"
	else
		fail "tui/fx-q-closes$sfx" "q did not close the submenu"
		tui_screen | indent
	fi
	# Search, then jump into the menuconfig.
	step fx-search-prompt "Search (regex):" / || return
	tui_keys 'e1000|sha2' Enter
	step fx-search "Search /e1000|sha2/: 3 matches" || return
	screen fx-search
	# n: the next match, over the heading, and round to the first.
	step fx-search-n "Kconfig:" n || return
	if tui_sgr "Use Rx polling (NAPI)" | grep -q "bg=4" &&
	   tui_keys n && tui_settle && tui_sgr "SHA224 and SHA256" | grep -q "bg=4" &&
	   tui_keys n && tui_settle && tui_sgr "Intel PRO/1000" | grep -q "bg=4"; then
		pass "tui/fx-search-next$sfx"
	else
		fail "tui/fx-search-next$sfx" "n did not go to the next match"
		tui_screen | indent
	fi
	# N: the previous match (less, vim), round to the last.
	if tui_keys N && tui_settle && tui_sgr "SHA224 and SHA256" | grep -q "bg=4" &&
	   tui_keys N && tui_settle && tui_sgr "Use Rx polling (NAPI)" | grep -q "bg=4" &&
	   tui_keys N && tui_settle && tui_sgr "Intel PRO/1000" | grep -q "bg=4"; then
		pass "tui/fx-search-previous$sfx"
	else
		fail "tui/fx-search-previous$sfx" "N did not go to the previous match"
		tui_screen | indent
	fi
	step fx-jump "Network device support" Enter || return
	screen fx-jump
	# Back from the jump: the main menu's cursor on the entry the jump
	# went through, not on its first line (issue 35, item 10).
	step fx-jump-back "Enter open/toggle" Escape || return
	if [ "$(tui_screen | sed -n 2p)" = " Main menu" ] &&
	   tui_sgr "Network device support" | grep -q "bg=4"; then
		pass "tui/fx-jump-back-cursor$sfx"
	else
		fail "tui/fx-jump-back-cursor$sfx" "the cursor is not on Network device support"
		tui_screen | indent
	fi
	# / again offers the last search: Enter is back at the results.
	step fx-search-again "Search (regex): e1000|sha2" / || return
	step fx-search-back "Search /e1000|sha2/: 3 matches" Enter || return
	step fx-jump-again "Main menu › Network device support" Enter || return
	# Issue 35, item 4: CONFIG_ is stripped, the symbol named exactly
	# comes first under its heading, then the other names, each group
	# said with its count; the cursor is on the symbol; y says why it
	# does nothing here.
	step fx-search-config "Search /CONFIG_E1000/: 2 matches" / CONFIG_E1000 Enter || return
	if [ "$(tui_screen | sed -n 5p)" = "Symbol (1)" ] &&
	   [ "$(tui_screen | sed -n 8p)" = "Names (1)" ] &&
	   tui_sgr "Intel PRO/1000" | grep -q "bg=4"; then
		pass "tui/fx-search-groups$sfx"
	else
		fail "tui/fx-search-groups$sfx" "not Symbol first, then Names, with the cursor on E1000"
		tui_screen | indent
	fi
	step fx-search-y "y: values are set in the menu: Enter jumps to the option" y || return
	step fx-search-config-back "Main menu › Network device support" Escape || return
	# Show-all shows VIRTIO_NET (depends on VIRTIO, which nothing sets)
	# with why it is invisible.
	step fx-showall "[show-all]" A || return
	step fx-invisible "invisible: depends on VIRTIO" Down Down || return
	screen fx-showall
	# E: the plan to turn the invisible option on; n leaves it.
	step fx-plan "CONFIG_VIRTIO_NET can't be made y: VIRTIO is not something you can set" E || return
	screen fx-plan
	step fx-plan-no "Nothing changed" n || return
	# Without -e, t says what it needs.
	step fx-trim-none "needs evidence: start kctui with -e BUNDLE" t || return
	# Save and leave.
	# s asks, naming the file; y writes it.
	# (the question goes on with its keys past 100 columns when the
	# temporary directory's name is long: its start names the file)
	step fx-save-ask "Save the configuration to $d/.config?" s || return
	step fx-save "Configuration written to $d/.config" y || return
	# l (issue 35, item 2): a file with bad lines; its warnings open in
	# a pager instead of being printed over the screen, and the file
	# becomes the one being edited: the title and what s writes.
	{ cat "$fx/config"; printf 'CONFIG_MODULES=q\nthis is not a config line\n'; } > "$d/bad.config"
	step fx-load-ask "Load configuration: $d/.config" l || return
	tui_keys C-w bad.config Enter
	step fx-load "Warnings loading $d/bad.config" || return
	if tui_screen | grep -qxF "$d/bad.config:13:warning: unexpected data: this is not a config line" &&
	   tui_screen | grep -qF "Configuration loaded from $d/bad.config; s saves to it" &&
	   tui_screen | head -n 1 | grep -qF " $d/bad.config - Fixture Kernel"; then
		pass "tui/fx-load-warnings-pager$sfx"
	else
		fail "tui/fx-load-warnings-pager$sfx" "no pager of warnings, or the title not the loaded file"
		tui_screen | indent
	fi
	step fx-load-close "Main menu" q || return
	step fx-load-save "Save the configuration to $d/bad.config?" s || return
	step fx-load-saved "Configuration written to $d/bad.config" y || return
	if ! grep -q "not a config line" "$d/bad.config" && [ -e "$d/bad.config.old" ]; then
		pass "tui/fx-load-save-target$sfx"
	else
		fail "tui/fx-load-save-target$sfx" "s did not write the loaded file"
	fi
	step fx-quit "[exited 0]" Q || return
	# The same changes made to the file, through olddefconfig.
	sed -e 's/^CONFIG_SWAP=y/# CONFIG_SWAP is not set/' \
	    -e 's/^CONFIG_LOG_BUF_SHIFT=17/CONFIG_LOG_BUF_SHIFT=18/' \
	    -e 's/^CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y/CONFIG_CC_OPTIMIZE_FOR_SIZE=y/' \
	    "$fx/config" > "$work/fx-expected"
	(cd "$fx" && "$KCTUI" --config "$work/fx-expected" olddefconfig >/dev/null)
	same_file "tui/fx-saved$sfx" "$work/fx-expected" "$d/.config" \
		"(saved .config = olddefconfig of the same changes)"
	same_file "tui/fx-saved-old$sfx" "$fx/config" "$d/.config.old" \
		"(.config.old is the previous file)"
	tui_stop
}

# ------------------------------------------------------------ real tree
real() {
	local d=$work/real bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	if ! kctui_tree_ensure > "$work/tree.log" 2>&1; then
		fail "tui/real$sfx" "could not unpack the real tree"
		indent < "$work/tree.log"
		return
	fi
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/.config"
	# The reference, first: it also warms the $(shell) cache, so the
	# worker's parse sees the same symbols in the same order.
	sed 's/^CONFIG_VIRTIO_NET=m/# CONFIG_VIRTIO_NET is not set/' "$DEBIAN_CLOUD" > "$work/real-expected"
	"$KCTUI" -C "$TREE" --config "$work/real-expected" olddefconfig > /dev/null
	TUI_SOCK=kctui-test-$$-real
	tui_start "$TREE" "$KCTUI" --config "$d/.config" -e "$bundle"
	# The menu is painted before the evidence is loaded; the marks come
	# when it is (a thread).
	step real-start "Main menu" -t 120 || return
	step real-loaded "suggested trim" -t 120 || return
	screen real-main
	# The evidence marks in their colours (classic theme).
	got=$(tui_sgr "● [*] 64-bit" "module crc32c_intel" | tr '\n' ';')
	if [ "$got" = "fg=2 bg=7 bold;fg=2 bg=7;" ]; then
		pass "tui/real-colours$sfx"
	else
		fail "tui/real-colours$sfx" "mark, item: $got"
	fi
	step real-search-prompt "Search (regex):" / || return
	tui_keys '^VIRTIO_NET$' Enter
	step real-search "1 match" || return
	screen real-search
	step real-jump "Main menu › Device Drivers › Network device support" Enter || return
	screen real-jump
	step real-toggle "modified" n || return
	screen real-toggled
	step real-help "Symbol: VIRTIO_NET [=n]" '?' || return
	if tui_screen | grep -q "^Value: n, set by you in .config." &&
	   tui_screen | grep -q "^Evidence: used — module virtio_net loaded"; then
		pass "tui/real-explain$sfx"
	else
		fail "tui/real-explain$sfx" "no explanation in the help"
	fi
	screen real-help
	# Space pages (less): the last page at once, not one line.
	step real-help-page "(100%)" Space || return
	screen real-help-page
	step real-help-pgup "(60%)" PgUp || return
	step real-back "Network device support" Escape || return
	step real-save "Configuration written to" s y || return
	step real-quit "[exited 0]" Q || return
	same_file "tui/real-saved$sfx" "$work/real-expected" "$d/.config" \
		"(saved .config = olddefconfig with VIRTIO_NET=n)"
	tui_stop
}

# TERM=dumb (issue 35, item 9): refused with a message, nothing drawn,
# nothing written.
dumb() {
	local fx=$here/fixture d=$work/dumb
	mkdir -p "$d"
	cp "$fx/config" "$d/.config"
	TUI_SOCK=kctui-test-$$-dumb
	tui_start "$fx" env TERM=dumb "$KCTUI" --config "$d/.config"
	if step dumb-exit "[exited 1]" &&
	   tui_screen | grep -qF "kctui: the interactive mode needs a terminal that can move its cursor (TERM is dumb)" &&
	   cmp -s "$fx/config" "$d/.config"; then
		pass "tui/term-dumb-refused$sfx"
	else
		fail "tui/term-dumb-refused$sfx" "TERM=dumb not refused with a message"
		tui_screen | indent
	fi
	tui_stop
}

# A bad theme: file:line:col on stderr, default theme, still runs.
bad_theme() {
	local fx=$here/fixture
	printf 'name: bad\ncolors:\n  normal: { fg: purple }\n' > "$work/bad.yaml"
	TUI_SOCK=kctui-test-$$-theme
	tui_start "$fx" sh -c "'$KCTUI' --config '$fx/config' --theme '$work/bad.yaml' 2> '$work/theme.err'"
	if step theme-start "Main menu"; then
		if grep -q "bad.yaml:3:17: unknown colour: purple" "$work/theme.err" &&
		   tui_screen | grep -q "unknown colour: purple (default theme)"; then
			pass "tui/bad-theme$sfx"
		else
			fail "tui/bad-theme$sfx" "no file:line:col message"
			indent < "$work/theme.err"
		fi
		step theme-ask "Save the configuration" q
		step theme-quit "[exited 0]" n
	fi
	tui_stop
	# A relative --theme FILE is the user's, from where kctui started,
	# not from the tree after -C (issue 35, item 10).
	TUI_SOCK=kctui-test-$$-theme2
	tui_start "$work" sh -c "'$KCTUI' -C '$fx' --config '$fx/config' --theme bad.yaml 2> '$work/theme2.err'"
	if step theme2-start "Main menu"; then
		if grep -q "^kctui: $work/bad.yaml:3:17: unknown colour: purple" "$work/theme2.err"; then
			pass "tui/theme-relative-from-cwd$sfx"
		else
			fail "tui/theme-relative-from-cwd$sfx" "the theme file not looked up from the start directory:"
			indent < "$work/theme2.err"
		fi
		step theme2-ask "Save the configuration" q
		step theme2-quit "[exited 0]" n
	fi
	tui_stop
}

# ------------------------------------------------------------- colours
# colour NAME THEME ENV [TEXT STATE]...: the fixture's main menu under a
# theme (THEME a file, or "" for the default) with ENV (NAME=value or
# ""); each TEXT must show in STATE (sgr.pl's "fg=N bg=N bold..."), as
# tmux received it from the terminal (capture-pane -e). STATE "nocolour":
# no colour anywhere on the screen.
colour() {
	local name=$1 theme=$2 envv=$3 text want got bad=; shift 3
	local fx=$here/fixture args=()
	[ -n "$theme" ] && args=(--theme "$theme")
	TUI_SOCK=kctui-test-$$-colour-$name
	tui_start "$fx" env ${envv:+"$envv"} "$KCTUI" --config "$fx/config" \
	    "${args[@]}"
	step "colour-$name" "Main menu" || return
	while [ $# -ge 2 ]; do
		text=$1 want=$2; shift 2
		if [ "$want" = nocolour ]; then
			got=$(tui_sgr --colours | tr '\n' ' ')
			[ -z "$got" ] && continue
		else
			got=$(tui_sgr "$text")
			[ "$got" = "$want" ] && continue
		fi
		bad+="$text: want $want, got $got; "
	done
	if [ -z "$bad" ]; then
		pass "tui/colour-$name$sfx"
	else
		fail "tui/colour-$name$sfx" "$bad"
	fi
	# The fixture's config is not olddefconfig's: q asks to save it.
	step "colour-$name-ask" "Save the configuration" q &&
	step "colour-$name-quit" "[exited 0]" n
	tui_stop
}

# Every theme draws its colours (tests/tui/sgr.pl reads them); mono and
# NO_COLOR none.
colours() {
	local th=$KCTUI_REPO/themes
	colour classic "" "" \
	    "Fixture Kernel" "fg=3 bg=4 bold" \
	    "Main menu" "fg=4 bg=7 bold" \
	    "Enable loadable" "fg=7 bg=4 bold" \
	    "General setup" "fg=0 bg=7" \
	    "set by you" "fg=0 bg=6"
	colour dark "$th/dark.yaml" "" \
	    "Fixture Kernel" "fg=3 bg=4 bold" \
	    "Main menu" "fg=14 bg=default bold" \
	    "Enable loadable" "fg=7 bg=4 bold" \
	    "General setup" "fg=7 bg=default" \
	    "set by you" "fg=0 bg=6"
	colour light "$th/light.yaml" "" \
	    "Main menu" "fg=4 bg=default bold" \
	    "Enable loadable" "fg=7 bg=25 bold" \
	    "General setup" "fg=0 bg=default"
	colour high-contrast "$th/high-contrast.yaml" "" \
	    "Fixture Kernel" "fg=0 bg=15 bold" \
	    "Main menu" "fg=11 bg=0 bold" \
	    "Enable loadable" "fg=0 bg=11 bold" \
	    "General setup" "fg=15 bg=0" \
	    "set by you" "fg=0 bg=15"
	colour mono mono "" \
	    "" nocolour \
	    "Enable loadable" "fg=default bg=default reverse" \
	    "Fixture Kernel" "fg=default bg=default bold"
	colour no-color "" "NO_COLOR=1" \
	    "" nocolour \
	    "Enable loadable" "fg=default bg=default reverse"
}

# ------------------------------------------------- trim review, enable
# Linux 6.1, Debian's cloud config and the cloud-vm bundle: t, one
# subsystem, accept it whole, export; the file must be what
# `kctui export --accept` writes, and the decisions file must have the
# lines. Then E on an invisible option applies a plan.
real_trim() {
	local d=$work/trim bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	local sub="Enable the block layer > IO Schedulers"
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/.config"
	# v (verify) must stop before building anything: the shared tree is
	# not clean for O= builds once conf ran in it (include/config); a
	# fresh one gets the directory conf makes, for this test only. QEMU
	# is the real one (make deps installs it): verify looks for it first.
	made_inc=
	if [ ! -e "$TREE/include/config" ]; then
		mkdir "$TREE/include/config" && made_inc=1
	fi
	TUI_SOCK=kctui-test-$$-trim
	tui_start "$TREE" "$KCTUI" --config "$d/.config" \
	    -e "$bundle" --decisions "$d/decisions"
	step trim-loaded "suggested trim" -t 120 || return
	step trim-list "reviewed," t || return
	screen trim-list
	step trim-sub "Trim review › $sub" Down Down Down Down Down Enter || return
	step trim-conseq "also CONFIG_BFQ_GROUP_IOSCHED y→n" || return
	screen trim-sub
	step trim-accept "2 options trimmed" a || return
	screen trim-accepted
	# What accepting dragged along stays shown under what dragged it.
	if tui_screen | grep -q "[[]trim[]].*CONFIG_IOSCHED_BFQ" &&
	   tui_screen | grep -q "also CONFIG_BFQ_GROUP_IOSCHED y→n"; then
		pass "tui/trim-dragged-shown$sfx"
	else
		fail "tui/trim-dragged-shown$sfx" "the dragged options went from the view"
		tui_screen | indent
	fi
	step trim-reviewed "1 of 99 reviewed," Escape || return
	# Undo, and again.
	step trim-undo "Undone: 2 options as before" u || return
	step trim-undone "0 of 99 reviewed," || return
	# Nothing decided any more: no decisions file left behind.
	if [ ! -e "$d/decisions" ]; then
		pass "tui/trim-undo-no-file$sfx"
	else
		fail "tui/trim-undo-no-file$sfx" "a decisions file with nothing decided:"
		indent < "$d/decisions"
	fi
	step trim-sub2 "Trim review › $sub" Enter || return
	step trim-accept2 "2 options trimmed" a || return
	# v: verify what is accepted; the tree is not clean for O=, the
	# message is the command line's, and nothing else changes.
	step verify-unclean "is not clean for an out-of-tree build" v
	ok=$?
	if [ -n "$made_inc" ]; then rmdir "$TREE/include/config"; fi
	[ $ok = 0 ] || return
	screen verify-unclean
	vt=$(find "$HOME" ${KCTUI_CACHE_DIR:+"$KCTUI_CACHE_DIR"} \
		-path '*/verify-*/trimmed.config' 2>/dev/null | head -n 1)
	if [ -n "$vt" ] && grep -q "^# CONFIG_IOSCHED_BFQ is not set" "$vt" &&
	   [ ! -e "$d/decisions" ]; then
		pass "tui/verify-unclean-files$sfx"
	else
		fail "tui/verify-unclean-files$sfx" "no trimmed config in the verify dir ($vt), or the decisions changed"
	fi
	# The default is beside the config being edited, not in the tree.
	step trim-export-ask "Export the trimmed configuration to $d/.config.trimmed" Escape e || return
	# Another name (a): edited, then a question names both files, y.
	step trim-export-other "Export trimmed config to: $d/.config.trimmed" a || return
	tui_keys C-u "$d/trimmed" Enter
	step trim-export-confirm "Export the trimmed configuration to $d/trimmed and its report to " || return
	step trim-exported "Exported 2 trimmed options to" y || return
	# The accepted options are n, BFQ's group option (depends on it) went
	# with them.
	if grep -q "^# CONFIG_IOSCHED_BFQ is not set" "$d/trimmed" &&
	   grep -q "^# CONFIG_MQ_IOSCHED_KYBER is not set" "$d/trimmed" &&
	   grep -q "^CONFIG_BFQ_GROUP_IOSCHED=y" "$DEBIAN_CLOUD" &&
	   ! grep -q "CONFIG_BFQ_GROUP_IOSCHED" "$d/trimmed"; then
		pass "tui/trim-values$sfx"
	else
		fail "tui/trim-values$sfx" "accepted options not n in the export"
	fi
	# Accepting, v and the export wrote no decisions: they are part of
	# what is edited, written with the configuration (s).
	if [ ! -e "$d/decisions" ]; then
		pass "tui/trim-accept-writes-nothing$sfx"
	else
		fail "tui/trim-accept-writes-nothing$sfx" "a decisions file before any save:"
		indent < "$d/decisions"
	fi
	if grep -q "dragged along: \`CONFIG_BFQ_GROUP_IOSCHED\` (y -> n, depends on IOSCHED_BFQ)" "$d/trimmed.md"; then
		pass "tui/trim-report$sfx"
	else
		fail "tui/trim-report$sfx" "report without the consequence"
	fi
	if "$here/report-diff.sh" "$DEBIAN_CLOUD" "$d/trimmed" "$d/trimmed.md" \
	    > "$work/trim-diff" 2>&1; then
		pass "tui/trim-report-diff$sfx" "($(cat "$work/trim-diff"))"
	else
		fail "tui/trim-report-diff$sfx" "report != diff(input, output):"
		indent < "$work/trim-diff"
	fi
	# E on an invisible option: the plan, y applies it.
	step trim-search "1 match" / '^SENSORS_LIS3_SPI$' Enter || return
	step trim-jump "invisible: depends on !ACPI && SPI_MASTER" Enter || return
	step trim-showall "show-all on: the option is invisible" || return
	step enable-help "(E: how to turn it on)" '?' || return
	step enable-plan "To make CONFIG_SENSORS_LIS3_SPI y, 3 changes:" E || return
	screen enable-plan
	step enable-apply "CONFIG_SENSORS_LIS3_SPI=y: 3 changes applied" y || return
	step enable-shown "<*> STMicroeletronics LIS3LV02Dx" || return
	screen enable-applied
	# The jump turned show-all on (and said so); at the main menu it
	# is off again.
	local i
	for ((i = 0; i < 8; i++)); do
		[ "$(tui_screen | sed -n 2p)" = " Main menu" ] && break
		tui_keys Escape
		tui_settle
	done
	if [ "$(tui_screen | sed -n 2p)" = " Main menu" ] &&
	   tui_screen | grep -q "show-all off again"; then
		pass "tui/showall-off-again$sfx"
	else
		fail "tui/showall-off-again$sfx" "show-all left on"
		tui_screen | indent
	fi
	step trim-quit "Save the configuration, with its 2 accepted trims, to" Q || return
	# Esc stays; s with another name asks, and y writes the config
	# there (the input stays as it was) and the decisions.
	step trim-stay "Not leaving" Escape || return
	step trim-save-ask "Save the configuration to: $d/.config" s a || return
	tui_keys C-w saved.config Enter
	step trim-save-confirm "Write the configuration to $d/saved.config? [y]es" || return
	step trim-save "Configuration written to $d/saved.config, the trim decisions to" y || return
	if grep -qx "CONFIG_MQ_IOSCHED_KYBER trim  # accepted in the kctui trim review" "$d/decisions" &&
	   grep -qx "CONFIG_IOSCHED_BFQ trim  # accepted in the kctui trim review" "$d/decisions" &&
	   tui_screen | head -n 1 | grep -qF " $d/saved.config - "; then
		pass "tui/trim-decisions$sfx"
	else
		fail "tui/trim-decisions$sfx" "decisions file, or the title not the saved file:"
		indent < "$d/decisions"
	fi
	step trim-quit2 "[exited 0]" Q || return
	tui_stop
	# The same export from the command line, with the decisions file
	# as it was when the review started (none).
	mv "$d/decisions" "$d/decisions.tui"
	"$KCTUI" -C "$TREE" --config "$d/.config" -e "$bundle" export \
	    --decisions "$d/decisions" --accept "$sub" -o "$d/cli" > /dev/null
	same_file "tui/trim-export$sfx" "$d/cli" "$d/trimmed" \
		"(TUI export = kctui export --accept \"$sub\")"
	cmp -s "$DEBIAN_CLOUD" "$d/.config" && pass "tui/trim-input-untouched$sfx" ||
		fail "tui/trim-input-untouched$sfx" "the input config was written"
}

# ----------------------------------------------- one state, one truth
# The Kyber case (issue 25): accept IO Schedulers in the review, set
# MQ_IOSCHED_KYBER back to m in the menu, change two options no trim
# touches (VIRTIO_NET m -> n, LOG_BUF_SHIFT 17 -> 18), export. The review
# no longer counts KYBER accepted (and says so), its decision is gone,
# the file has it m, and the report is diff(input, output): every option
# whose line differs between the config kctui read and the file written
# is in it, with both values, and nothing else (report-diff.sh).
real_kyber() {
	local d=$work/kyber bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	local sub="Enable the block layer > IO Schedulers" diffset repset
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/.config"
	# Warms the $(shell) cache: the worker's parse sees the same
	# symbols in the same order.
	cp "$DEBIAN_CLOUD" "$d/warm"
	"$KCTUI" -C "$TREE" --config "$d/warm" olddefconfig > /dev/null
	TUI_SOCK=kctui-test-$$-kyber
	tui_start "$TREE" "$KCTUI" --config "$d/.config" \
	    -e "$bundle" --decisions "$d/decisions"
	step kyber-loaded "suggested trim" -t 120 || return
	step kyber-list "reviewed," t || return
	step kyber-sub "Trim review › $sub" Down Down Down Down Down Enter ||
		return
	step kyber-accept "2 options trimmed" a || return
	step kyber-menu "Main menu" Escape Escape || return
	step kyber-search "1 match" / '^MQ_IOSCHED_KYBER$' Enter || return
	step kyber-jump "Kyber I/O scheduler" Enter || return
	step kyber-on "CONFIG_MQ_IOSCHED_KYBER=m is on again: no longer accepted in the trim review" m ||
		return
	screen kyber-on
	# t on its line: the review at it, 1 of 2 reviewed now.
	step kyber-sub2 "Trim review › $sub" t || return
	if tui_screen | grep -q "All 2 candidates, 1 reviewed"; then
		pass "tui/kyber-review$sfx"
	else
		fail "tui/kyber-review$sfx" "IO Schedulers not 1 of 2 reviewed"
		tui_screen | indent
	fi
	# Changes of the menu's, no trim's: a tristate and an int.
	step kyber-menu2 "Main menu" Escape Escape Escape || return
	step kyber-vnet "1 match" / '^VIRTIO_NET$' Enter || return
	step kyber-vnet-jump "Virtio network driver" Enter || return
	step kyber-vnet-off "modified" n || return
	step kyber-log "1 match" / '^LOG_BUF_SHIFT$' Enter || return
	step kyber-log-jump "Kernel log buffer size" Enter || return
	step kyber-log-ask "(int):" Enter || return
	tui_keys C-u 18 Enter
	step kyber-log-set "(18) Kernel log buffer size" || return
	step kyber-export-ask "Export trimmed config to:" e a || return
	tui_keys C-u "$d/trimmed" Enter y
	step kyber-exported "Exported 1 trimmed options to" || return
	# The decisions are written with the configuration (y).
	step kyber-quit "Save the configuration" Q || return
	step kyber-quit2 "[exited 0]" y || return
	tui_stop
	if grep -qx "CONFIG_MQ_IOSCHED_KYBER=m" "$d/trimmed" &&
	   ! grep -q "MQ_IOSCHED_KYBER" "$d/trimmed.md" &&
	   ! grep -q "MQ_IOSCHED_KYBER" "$d/decisions" &&
	   grep -q "^CONFIG_IOSCHED_BFQ trim" "$d/decisions"; then
		pass "tui/kyber-file$sfx"
	else
		fail "tui/kyber-file$sfx" "KYBER not m in the file, or in the report or decisions"
		grep -h KYBER "$d/trimmed" "$d/trimmed.md" "$d/decisions" | indent
	fi
	# report = diff(input, output): the input is the file kctui read
	# (Debian's, which olddefconfig also brings up to date).
	if "$here/report-diff.sh" "$DEBIAN_CLOUD" "$d/trimmed" "$d/trimmed.md" \
	    > "$work/kyber-diff" 2>&1; then
		pass "tui/kyber-report$sfx" "($(cat "$work/kyber-diff"))"
	else
		fail "tui/kyber-report$sfx" "report != diff(input, output):"
		indent < "$work/kyber-diff"
	fi
	# The menu's changes are other changes, said to be the browser's;
	# BFQ's group option is dragged along by the accepted BFQ.
	if grep -qx -- '- `CONFIG_VIRTIO_NET`: m -> n (set in the browser, not by a trim)' "$d/trimmed.md" &&
	   grep -qx -- '- `CONFIG_LOG_BUF_SHIFT`: 17 -> 18 (set in the browser, not by a trim)' "$d/trimmed.md" &&
	   grep -q -- '^  - dragged along: `CONFIG_BFQ_GROUP_IOSCHED` (y -> n, depends on IOSCHED_BFQ)' "$d/trimmed.md"; then
		pass "tui/kyber-report-menu$sfx"
	else
		fail "tui/kyber-report-menu$sfx" "the menu's changes not in the report as such:"
		indent < "$d/trimmed.md"
	fi
}

# Paths (issue 25): kctui run in a directory of the user's with -C TREE
# and a relative --config: the config is the one in that directory (not
# the tree's), the decisions file and the export's default go beside it
# (a relative name typed for the export or for L is from that directory
# too),
# an undo that leaves nothing decided removes the decisions file, and
# nothing at all is written into the tree. A relative $KCONFIG_CONFIG
# stays the tree's (as make -C), and the error says where it looked.
real_paths() {
	local d=$work/paths bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	local sub="Enable the block layer > IO Schedulers" f before after
	# Wide: the messages checked name two paths in full.
	local TUI_W=200 TUI_H=40
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/rel.config"
	cp "$DEBIAN_CLOUD" "$d/other.config"
	# The tree's files of those names, as they are before (an inode
	# and mtime, or "absent"): the same after.
	ident() {
		for f in .kctui-decisions rel.config.kctui-decisions \
		    saved.config.kctui-decisions rel.config rel.config.trimmed \
		    rel.config.trimmed.md .config.trimmed typed.config; do
			printf '%s:%s ' "$f" "$(stat -c '%i.%Y' "$TREE/$f" 2>/dev/null || echo absent)"
		done
	}
	before=$(ident)
	TUI_SOCK=kctui-test-$$-paths
	tui_start "$d" "$KCTUI" -C "$TREE" --config rel.config -e "$bundle"
	step paths-loaded "suggested trim" -t 120 || return
	if tui_screen | head -n 1 | grep -qF " $d/rel.config - "; then
		pass "tui/paths-config-from-cwd$sfx"
	else
		fail "tui/paths-config-from-cwd$sfx" "the title does not name $d/rel.config"
		tui_screen | head -n 2 | indent
	fi
	# L offers the config's path in full; a relative name typed is
	# from the user's directory (other.config: the same values).
	step paths-load-ask "Load configuration: $d/rel.config" l || return
	tui_keys C-u other.config Enter
	step paths-load "Configuration loaded from $d/other.config; s saves to it" || return
	# The loaded file is the one being edited: the title names it.
	if tui_screen | head -n 1 | grep -qF " $d/other.config - "; then
		pass "tui/paths-load-title$sfx"
	else
		fail "tui/paths-load-title$sfx" "the title does not name $d/other.config"
	fi
	step paths-list "reviewed," t || return
	step paths-sub "Trim review › $sub" Down Down Down Down Down Enter || return
	step paths-accept "2 options trimmed: set to n" a || return
	step paths-list2 "1 of 99 reviewed," Escape || return
	step paths-undo "Undone: 2 options as before" u || return
	if ! ls -A "$d" | grep -q kctui-decisions; then
		pass "tui/paths-undo-no-file$sfx"
	else
		fail "tui/paths-undo-no-file$sfx" "a decisions file with nothing decided"
	fi
	step paths-sub2 "Trim review › $sub" Enter || return
	step paths-accept2 "2 options trimmed" a || return
	step paths-export-ask "Export the trimmed configuration to $d/other.config.trimmed and its report" e || return
	tui_keys y
	step paths-exported "Exported 2 trimmed options to $d/other.config.trimmed" || return
	# A relative name typed is the user's too, as --config's.
	step paths-export-ask2 "Export trimmed config to:" e a || return
	tui_keys C-u typed.config Enter y
	step paths-exported2 "Exported 2 trimmed options to $d/typed.config" || return
	# One rule for outputs (item 7): the browser refuses, with the
	# command line's message, an export over the config it read or the
	# one being edited (the loaded file); neither is touched.
	step paths-export-input "Export trimmed config to:" e a || return
	tui_keys C-u rel.config Enter y
	step paths-export-input2 "export: --config ($d/rel.config) and -o ($d/rel.config) are the same file; nothing written" || return
	step paths-export-edited "Export trimmed config to:" e a || return
	tui_keys C-u other.config Enter y
	step paths-export-edited2 "export: the file being edited ($d/other.config) and -o ($d/other.config) are the same file; nothing written" || return
	"$KCTUI" -C "$TREE" --config "$d/rel.config" -e "$bundle" export -o "$d/rel.config" > /dev/null 2> "$work/paths-cli-same"
	if grep -qxF "kctui: export: --config ($d/rel.config) and -o ($d/rel.config) are the same file; nothing written" "$work/paths-cli-same" &&
	   cmp -s "$DEBIAN_CLOUD" "$d/rel.config" && cmp -s "$DEBIAN_CLOUD" "$d/other.config"; then
		pass "tui/paths-export-over-input-refused$sfx"
	else
		fail "tui/paths-export-over-input-refused$sfx" "the CLI's message differs, or a config was written:"
		indent < "$work/paths-cli-same"
	fi
	step paths-quit "Save the configuration, with its 2 accepted trims, to" Q || return
	# A relative name typed for s is the user's too; the decisions go
	# beside the config, written with it.
	step paths-stay "Not leaving" Escape || return
	step paths-save-ask "Save the configuration to: $d/other.config" s a || return
	tui_keys C-u saved.config Enter y
	step paths-saved "Configuration written to $d/saved.config" || return
	# Loaded, then saved as saved.config: the decisions follow the
	# config to its own file.
	if grep -qx "CONFIG_IOSCHED_BFQ trim  # accepted in the kctui trim review" "$d/saved.config.kctui-decisions"; then
		pass "tui/paths-decisions-beside$sfx"
	else
		fail "tui/paths-decisions-beside$sfx" "no $d/saved.config.kctui-decisions with the decision"
		ls -A "$d" | indent
	fi
	step paths-quit2 "[exited 0]" Q || return
	tui_stop
	# What the user decided, and nothing else, beside the config.
	got=$(cd "$d" && ls -A | tr '\n' ' ')
	if [ "$got" = "other.config other.config.trimmed other.config.trimmed.md rel.config saved.config saved.config.kctui-decisions typed.config typed.config.md " ] &&
	   cmp -s "$DEBIAN_CLOUD" "$d/rel.config"; then
		pass "tui/paths-files$sfx" "($got)"
	else
		fail "tui/paths-files$sfx" "files beside the config: $got (or rel.config written)"
	fi
	after=$(ident)
	if [ "$before" = "$after" ]; then
		pass "tui/paths-tree-untouched$sfx"
	else
		fail "tui/paths-tree-untouched$sfx" "before: $before; after: $after"
	fi
	# A relative --config that is not there: the error names the path
	# from the user's directory; a relative $KCONFIG_CONFIG, the tree's.
	(cd "$d" && "$KCTUI" -C "$TREE" --config nosuch.config explain MQ_IOSCHED_KYBER) \
		> /dev/null 2> "$work/paths-err1"
	(cd "$d" && KCONFIG_CONFIG=nosuch.config "$KCTUI" -C "$TREE" explain MQ_IOSCHED_KYBER) \
		> /dev/null 2> "$work/paths-err2"
	if grep -qxF "kctui: $d/nosuch.config: No such file or directory (--config names the configuration to read)" "$work/paths-err1" &&
	   grep -qF "kctui: no $TREE/nosuch.config (\$KCONFIG_CONFIG is relative to the tree, as with make -C): using defaults found in" "$work/paths-err2"; then
		pass "tui/paths-errors-say-where$sfx"
	else
		fail "tui/paths-errors-say-where$sfx" "errors:"
		cat "$work/paths-err1" "$work/paths-err2" | indent
	fi
}

# t while evidence loads opens the review when it is done; a candidate
# with evidence shows both marks (◐✂); t on its line opens the review at
# it; the list and the subsystem remember their cursors.
real_review() {
	local d=$work/review bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/.config"
	TUI_SOCK=kctui-test-$$-review
	tui_start "$TREE" "$KCTUI" --config "$d/.config" \
	    -e "$bundle" --decisions "$d/decisions"
	step review-start "loading evidence" -t 120 || return
	step review-early "the trim review opens when it is done" t || return
	step review-opened "Trim review: 0 of" -t 120 || return
	pass "tui/review-after-load$sfx"
	# ? where there is no option help: the key list.
	step review-keys "Keys (F1; ? where there is no option help):" '?' ||
		return
	step review-keys-close "Trim review: 0 of" Escape || return
	step review-menu "Main menu" Escape || return
	step review-search "1 match" / '^MLX5_CORE$' Enter || return
	step review-jump "Mellanox 5th generation network adapters" Enter ||
		return
	if tui_screen | grep -q "^◐✂<M> .*Mellanox 5th generation network adapters (ConnectX series) core driver"; then
		pass "tui/review-marks$sfx"
	else
		fail "tui/review-marks$sfx" "no ◐✂ on MLX5_CORE's line"
		tui_screen | indent
	fi
	screen review-marks
	step review-at "Trim review ›" t || return
	if [ "$(tui_sgr "CONFIG_MLX5_CORE ")" = "fg=7 bg=4 bold" ]; then
		pass "tui/review-at-candidate$sfx"
	else
		fail "tui/review-at-candidate$sfx" "the cursor is not on CONFIG_MLX5_CORE"
		tui_screen | indent
	fi
	screen review-at
	# Up to the candidate above, back to the menu, off the candidate,
	# t: the list at the same subsystem, Enter: the same line.
	step review-up "CONFIG_MLX4_EN:" Up Up || return
	step review-menu2 "Main menu ›" Escape Escape || return
	step review-list2 "Trim review: " Home t || return
	step review-sub2 "Trim review › Device Drivers > Network device support > Ethernet driver support" Enter || return
	if [ "$(tui_sgr "CONFIG_MLX4_EN ")" = "fg=7 bg=4 bold" ]; then
		pass "tui/review-remembers$sfx"
	else
		fail "tui/review-remembers$sfx" "the cursor is not back on CONFIG_MLX4_EN"
		tui_screen | indent
	fi
	# r (keep) on a candidate: the cursor goes to the next one.
	step review-keep "CONFIG_MLX4_EN: kept" r || return
	if [ "$(tui_sgr "CONFIG_MLX5_CORE ")" = "fg=7 bg=4 bold" ]; then
		pass "tui/review-next-after-r$sfx"
	else
		fail "tui/review-next-after-r$sfx" "the cursor did not move to CONFIG_MLX5_CORE"
		tui_screen | indent
	fi
	step review-quit-ask "Save the configuration" Q || return
	step review-quit "[exited 0]" n || return
}

# An option forced on by a select is never suggested (IOSF_MBI,
# PCI_HYPERV_INTERFACE): trimming what selects it takes it along. A
# "trim" decision still makes it a candidate; accepting it then fails,
# and the review says which and why, in full, without changing anything.
real_forced() {
	local d=$work/forced bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/.config"
	"$KCTUI" -C "$TREE" --config "$d/.config" -e "$bundle" suggest \
	    --decisions "$d/none" > "$d/suggest" 2>&1
	"$KCTUI" -C "$TREE" --config "$d/.config" -e "$bundle" export \
	    --decisions "$d/none" --accept all -o "$d/all" > /dev/null 2>&1
	if grep -q "CONFIG_PCI_HYPERV " "$d/suggest" &&
	   ! grep -qE "CONFIG_(PCI_HYPERV_INTERFACE|IOSF_MBI) " "$d/suggest" &&
	   grep -qx "# CONFIG_PCI_HYPERV_INTERFACE is not set" "$d/all" &&
	   grep -qx "# CONFIG_IOSF_MBI is not set" "$d/all"; then
		pass "tui/forced-not-suggested$sfx"
	else
		fail "tui/forced-not-suggested$sfx" "a forced option suggested, or not taken along"
		grep -E "PCI_HYPERV|IOSF_MBI" "$d/suggest" "$d/all" | indent
	fi
	printf 'CONFIG_PCI_HYPERV_INTERFACE trim  # asked for\n' > "$d/decisions"
	TUI_SOCK=kctui-test-$$-forced
	tui_start "$TREE" "$KCTUI" --config "$d/.config" \
	    -e "$bundle" --decisions "$d/decisions"
	step forced-loaded "suggested trim" -t 120 || return
	step forced-search "1 match" / '^PCI_HYPERV_INTERFACE$' Enter || return
	step forced-jump "Hyper-V PCI Interface" Enter || return
	step forced-review "Trim review › Device Drivers > PCI support > PCI controller drivers" t ||
		return
	step forced-accept "0 of 1 options trimmed; 1 could not be set to n" a ||
		return
	screen forced-list
	if tui_screen | grep -q "CONFIG_PCI_HYPERV_INTERFACE (m): selected by PCI_HYPERV &&" &&
	   ! tui_screen | grep -q "modified"; then
		pass "tui/forced-why$sfx"
	else
		fail "tui/forced-why$sfx" "no full list with why, or modified"
		tui_screen | indent
	fi
	step forced-close "Trim review ›" q || return
	step forced-quit-ask "Save the configuration" Q || return
	step forced-quit "[exited 0]" n || return
}

# A candidate kctui verify could not test (its bound device has no QEMU
# twin: a virtio vsock on a bundle without a vm) is marked ⊘, not ✂, in
# the menu and in the review, whose line says why.
real_nontwin() {
	local d=$work/nontwin src=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp -r "$src" "$d/bundle"
	rm -rf "$d/bundle/vm" "$d/bundle/workload" "$d/bundle/workload.d"
	echo "virtio vmw_vsock_virtio_transport pci0000:00/0000:00:06.0/virtio5 vmw_vsock_virtio_transport" >> "$d/bundle/drivers"
	cp "$DEBIAN_CLOUD" "$d/.config"
	printf 'CONFIG_VIRTIO_VSOCKETS trim  # asked for\n' > "$d/decisions"
	TUI_SOCK=kctui-test-$$-nontwin
	tui_start "$TREE" "$KCTUI" --config "$d/.config" \
	    -e "$d/bundle" --decisions "$d/decisions"
	step nontwin-loaded "suggested trim" -t 120 || return
	step nontwin-search "1 match" / '^VIRTIO_VSOCKETS$' Enter || return
	step nontwin-jump "virtio transport for Virtual Sockets" Enter || return
	if tui_screen | grep -q "^●⊘<M> .*virtio transport for Virtual Sockets"; then
		pass "tui/nontwin-menu-mark$sfx"
	else
		fail "tui/nontwin-menu-mark$sfx" "no ●⊘ on VIRTIO_VSOCKETS's line"
		tui_screen | indent
	fi
	step nontwin-review "Trim review ›" t || return
	if tui_screen | grep -q "^ *⊘  *m  CONFIG_VIRTIO_VSOCKETS " &&
	   tui_screen | grep -q "decision: trim (asked for); not verifiable"; then
		pass "tui/nontwin-review-mark$sfx"
	else
		fail "tui/nontwin-review-mark$sfx" "no ⊘ line for CONFIG_VIRTIO_VSOCKETS, or no why"
		tui_screen | indent
	fi
	screen nontwin-review
	step nontwin-quit-ask "Save the configuration" Q || return
	step nontwin-quit "[exited 0]" n || return
}

# Help that reads right: each symbol with its value (mconf), the
# parentheses precedence needs, one line per selector, evidence of an
# option that is off says so, E offered only for what is off.
real_help() {
	local d=$work/help bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/.config"
	TUI_SOCK=kctui-test-$$-help
	tui_start "$TREE" "$KCTUI" --config "$d/.config" -e "$bundle" \
	    --decisions "$d/decisions"
	step help-loaded "suggested trim" -t 120 || return
	step help-search "1 match" / '^WEXT_CORE$' Enter || return
	step help-wext "Symbol: WEXT_CORE" '?' || return
	screen help-wext
	if tui_screen | grep -qx "  Depends on: NET \[=y\] && WIRELESS \[=n\] && (CFG80211_WEXT \[=n\] || WIRELESS_EXT \[=n\])" &&
	   tui_screen | grep -qx "  - CFG80211_WEXT \[=n\] && NET \[=y\] && WIRELESS \[=n\] && CFG80211 \[=n\]" &&
	   tui_screen | grep -qx "  Invisible: depends on WIRELESS && (CFG80211_WEXT || WIRELESS_EXT)" &&
	   tui_screen | grep -q "^Evidence: used on the recorded machine, but it is off in this configuration"; then
		pass "tui/help-expr$sfx"
	else
		fail "tui/help-expr$sfx" "values, parentheses or the off evidence missing"
		tui_screen | indent
	fi
	step help-back "Search /" Escape || return
	step help-search2 "1 match" Escape / '^EXT4_FS$' Enter || return
	step help-ext4 "Help: EXT4_FS" '?' || return
	# / finds text on the page (less): the line comes to the top.
	step help-find "Find on this page:" / || return
	tui_keys "Selected by" Enter
	step help-found "  Selected by [n]:" || return
	if [ "$(tui_screen | sed -n 5p)" = "  Selected by [n]:" ]; then
		pass "tui/help-find$sfx"
	else
		fail "tui/help-find$sfx" "the line found is not at the top"
		tui_screen | indent
	fi
	if tui_screen | grep -qx "  Selected by \[n\]:" &&
	   tui_screen | grep -qx "  - EXT3_FS \[=n\] && BLOCK \[=y\]" &&
	   ! tui_screen | grep -q "(E: how to turn it on)"; then
		pass "tui/help-selected-by$sfx"
	else
		fail "tui/help-selected-by$sfx" "no Selected by line with values, or E offered for a y option"
		tui_screen | indent
	fi
	# Every evidence item is listed (none "... N more").
	step help-ext4-end "(100%)" End || return
	if tui_screen | grep -q "^  trace:" && ! tui_screen | grep -q " more$"; then
		pass "tui/help-all-items$sfx"
	else
		fail "tui/help-all-items$sfx" "evidence items cut"
		tui_screen | indent
	fi
	# MLX5_CORE depends on three "X || !X": the note about the other
	# alternatives is said once, in the singular.
	step help-search3 "1 match" Escape Escape / '^MLX5_CORE$' Enter || return
	step help-mlx5 "Help: MLX5_CORE" '?' || return
	screen help-mlx5
	local joined
	joined=$(tui_screen | tr '\n' ' ' | tr -s ' ')
	if [ "$(grep -o alternative <<< "$joined" | wc -l)" = 1 ] &&
	   grep -qF "VXLAN is m, MLXFW is m and PCI_HYPERV_INTERFACE is m (and in each, the other alternative does not hold either)." <<< "$joined"; then
		pass "tui/help-alternatives-once$sfx"
	else
		fail "tui/help-alternatives-once$sfx" "the note on alternatives repeated or plural"
		tui_screen | indent
	fi
	step help-quit-ask "Save the configuration" Q || return
	step help-quit "[exited 0]" n || return
}

# The review at 80x24: the legend shortens and keeps "? help", the
# list has column headings, paths are cut in the middle so the leaf
# stays readable, the selected one is in full on the status line; a
# subsystem's candidates show their prompt, the counts apart from it.
real_small() {
	local d=$work80 bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	local TUI_W=80 TUI_H=24
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/.config"
	TUI_SOCK=kctui-test-$$-small
	tui_start "$TREE" "$KCTUI" --config "$d/.config" -e "$bundle" \
	    --decisions "$d/decisions"
	step small-loaded "t review  ? help" -t 120 || return
	step small-list "reviewed," t || return
	down_to small-netfilter "Core Netfilter Configuration  (0 of" || return
	screen small-list
	if tui_screen | sed -n 3p | grep -q "? help$" &&
	   tui_screen | grep -q "^ *0/107 .*… > Core Netfilter Configuration$" &&
	   tui_screen | grep -q "^ ….* > Core Netfilter Configuration  (0 of 107 reviewed)" &&
	   tui_screen | grep -q "^  reviewed   objects  modules      off  subsystem"; then
		pass "tui/small-list$sfx"
	else
		fail "tui/small-list$sfx" "legend without ? help, a path cut at its end, or no headings"
		tui_screen | indent
	fi
	# o sorts: by what each turns off, the most first (after the
	# savings).
	step small-sort "subsystem (o: most turned off)" o o || return
	local offs
	offs=$(tui_screen | sed -n '5,20p' | grep -oE '[0-9]+ off' | cut -d' ' -f1 | tr '\n' ' ')
	if [ -n "$offs" ] && [ "$offs" = "$(printf '%s\n' $offs | sort -rn | tr '\n' ' ')" ]; then
		pass "tui/small-sort$sfx" "($offs)"
	else
		fail "tui/small-sort$sfx" "not by most turned off: $offs"
	fi
	step small-unsort "subsystem (o: menu order)" o o o || return
	down_to small-netfilter2 "Core Netfilter Configuration  (0 of" || return
	step small-sub "Trim review ›" Enter || return
	step small-sub2 "; turns off " || return
	screen small-sub
	if tui_screen | grep -q "^ Trim review › .*… > Core Netfilter Configuration$" &&
	   tui_screen | grep -qE "^   ✂    m  CONFIG_NF_CONNTRACK +Netfilter"; then
		# At 80 columns the saving is the bottom line's (issue 35,
		# item 9): the prompt keeps its column.
		pass "tui/small-sub$sfx"
	else
		fail "tui/small-sub$sfx" "title cut at its end, or counts run into the prompt"
		tui_screen | indent
	fi
	step small-quit-ask "Save the configuration" Q || return
	step small-quit "[exited 0]" n || return
}

# col_of TEXT: the column (in characters) where TEXT starts on the line
# read from stdin.
col_of() {
	perl -CS -Mutf8 -ne 'BEGIN { $t = shift @ARGV; utf8::decode($t) }
		chomp; $i = index($_, $t); print "$i\n" if $i >= 0' "$1"
}

# Savings (issue 25): with the modules' sizes known (KCTUI_MODULES_DIR:
# two .ko made here, 40 and 100 KiB once loaded, for Kyber and BFQ), the
# list has a KiB column under its heading, o sorts by savings first,
# the subsystem's candidates have column headings, and the title keeps
# the running total of what the accepted trims remove.
real_savings() {
	local d=$work/savings bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	local sub="Enable the block layer > IO Schedulers"
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d/mods/kernel/block"
	cp "$DEBIAN_CLOUD" "$d/.config"
	# Their allocated sections: 40960 and 102400 bytes of .data.
	printf 'char kyber_pad[40960] = {1};\n' |
		gcc -x c -c - -o "$d/mods/kernel/block/kyber-iosched.ko" &&
	printf 'char bfq_pad[102400] = {1};\n' |
		gcc -x c -c - -o "$d/mods/kernel/block/bfq.ko" || {
		fail "tui/savings$sfx" "could not make the .ko files"
		return
	}
	TUI_SOCK=kctui-test-$$-savings
	tui_start "$TREE" env KCTUI_MODULES_DIR="$d/mods" "$KCTUI" \
	    --config "$d/.config" -e "$bundle" --decisions "$d/decisions"
	step savings-loaded "suggested trim" -t 120 || return
	step savings-list "reviewed," t || return
	if tui_screen | grep -qx "  reviewed   objects  modules     KiB      off  subsystem (o: menu order)" &&
	   tui_screen | grep -qx "     0/2      4 objs   2 mods     140    4 off  $sub" &&
	   tui_screen | grep -qx "     0/1      1 objs   1 mods       -    1 off  Executable file formats"; then
		pass "tui/savings-column$sfx"
	else
		fail "tui/savings-column$sfx" "no KiB column under its heading"
		tui_screen | indent
	fi
	step savings-sort "subsystem (o: most savings)" o Home || return
	tui_settle
	if tui_screen | sed -n 5p | grep -q " 140    4 off  $sub\$"; then
		pass "tui/savings-sort$sfx"
	else
		fail "tui/savings-sort$sfx" "$sub (140 KiB) is not first by savings"
		tui_screen | indent
	fi
	step savings-sub "Trim review › $sub" Enter || return
	step savings-sub2 "; turns off " || return
	screen savings-sub
	if tui_screen | sed -n 4p | grep -qE "^ state  was option +saving +prompt, reason" &&
	   tui_screen | grep -qE "^   ✂    m  CONFIG_MQ_IOSCHED_KYBER +1 obj, 1 module, 40 KiB +Kyber I/O scheduler" &&
	   [ "$(tui_screen | sed -n 4p | col_of "prompt, reason")" = \
	     "$(tui_screen | grep "CONFIG_MQ_IOSCHED_KYBER" | col_of "Kyber I/O")" ]; then
		pass "tui/savings-sub-headings$sfx"
	else
		fail "tui/savings-sub-headings$sfx" "no column headings over the candidates"
		tui_screen | indent
	fi
	step savings-accept "2 options trimmed" a || return
	step savings-total "2 accepted (modules) removing 140 KiB, 4 objs" Escape || return
	screen savings-list
	step savings-undo "0 accepted (modules)" u || return
	if ! tui_screen | grep -q "removing"; then
		pass "tui/savings-total$sfx"
	else
		fail "tui/savings-total$sfx" "the total stays after undo"
	fi
	step savings-quit-ask "Save the configuration" Q || return
	step savings-quit "[exited 0]" n || return
}

# The review at 220x60: the full legend, every path whole.
real_large() {
	local d=$work/large bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	local TUI_W=220 TUI_H=60
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/.config"
	TUI_SOCK=kctui-test-$$-large
	tui_start "$TREE" "$KCTUI" --config "$d/.config" -e "$bundle" \
	    --decisions "$d/decisions"
	step large-loaded "suggested trim  (NEW)  t trim review  ? help" -t 120 || return
	step large-list "of 99 reviewed," t || return
	screen large-list
	if tui_screen | grep -q "Networking support > Networking options > Network packet filtering framework (Netfilter) > Core Netfilter Configuration$" &&
	   ! tui_screen | sed -n '5,56p' | grep -q "…"; then
		pass "tui/large-list$sfx"
	else
		fail "tui/large-list$sfx" "a path cut on a wide screen"
		tui_screen | indent
	fi
	step large-quit-ask "Save the configuration" Q || return
	step large-quit "[exited 0]" n || return
}

# ------------------------------------------------------------ Linux 6.12
# Debian's 6.12 tree and cloud config (6.11 choices: no mode, a value
# is chosen by priority): the Timer frequency choice drawn as a radio
# list, another value picked, saved; the file must be what the 6.12
# tree's own conf makes of the same change.
real_612() {
	local d=$work/k612
	if ! kctui_tree_ensure 6.12 > "$work/tree612.log" 2>&1; then
		fail "tui/real-6.12$sfx" "could not unpack the 6.12 tree"
		indent < "$work/tree612.log"
		return
	fi
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/.config"
	sed -e 's/^CONFIG_HZ_250=y/# CONFIG_HZ_250 is not set/' \
	    -e 's/^# CONFIG_HZ_1000 is not set/CONFIG_HZ_1000=y/' \
	    "$DEBIAN_CLOUD" > "$work/k612-expected"
	mapfile -t kenv < <("$KCTUI" -C "$TREE" print-env)
	env -i -C "$TREE" PATH="$PATH" HOME="$HOME" "${kenv[@]}" \
	    KCONFIG_CONFIG="$work/k612-expected" ./scripts/kconfig/conf -s \
	    --olddefconfig Kconfig > /dev/null 2>&1
	TUI_SOCK=kctui-test-$$-k612
	tui_start "$TREE" "$KCTUI" --config "$d/.config"
	step k612-start "Main menu" -t 120 || return
	step k612-search "1 match" / '^HZ_1000$' Enter || return
	step k612-jump "Timer frequency" Enter || return
	screen k612-choice
	step k612-pick "(X) 1000 HZ" y || return
	screen k612-picked
	step k612-save "Configuration written to" Escape s y || return
	step k612-quit "[exited 0]" Q || return
	same_file "tui/k612-saved$sfx" "$work/k612-expected" "$d/.config" \
		"(saved .config = the 6.12 conf's olddefconfig of HZ_1000=y)"
	tui_stop
}

# ------------------------------------------------- terminal discipline
# Issue 35, item 1: a user who believes they are at the shell types
# command lines into the browser (the main menu, then the trim review,
# then a prompt); nothing is written anywhere: not the config, not the
# decisions, not a file named after the typed text (in the user's
# directory or the tree). Each s or e asks, naming the file; what is
# typed after it edits the offered path instead of replacing it, and an
# edited path is written only after a y. C-c asks to quit, counting the
# accepted trims; C-c again quits without writing.
typed() {
	local d=$work/typed bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	local before after TUI_W=200 TUI_H=40
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/rel.config"
	# The user's directory whole; in the shared tree (other tests may
	# run conf there), any file of a name kctui could have made.
	listing() {
		find "$d" -newer "$work/typed.stamp" | sort
		find "$TREE" -mindepth 1 -maxdepth 1 -newer "$work/typed.stamp" \
		    \( -name '*hello*' -o -name '*-3*' -o -name '*trimmed*' \
		    -o -name '*decisions*' -o -name '*rel.config*' \) | sort
		(cd "$d" && ls -A --full-time)
	}
	touch "$work/typed.stamp"
	sleep 1.1
	before=$(listing)
	TUI_SOCK=kctui-test-$$-typed
	tui_start "$d" "$KCTUI" -C "$TREE" --config rel.config -e "$bundle"
	step typed-loaded "suggested trim" -t 120 || return
	# to_main: Escape until the main menu (one Esc there only arms).
	to_main() {
		local i
		for ((i = 0; i < 10; i++)); do
			tui_settle
			[ "$(tui_screen | sed -n 2p)" = " Main menu" ] && return 0
			tui_keys Escape
		done
		return 1
	}
	# s asks (naming the file), t is no answer; the rest acts in
	# memory (the review opens, a accepts, h is help...).
	tui_keys 'stty -a | head -3; echo hello' Enter
	tui_settle
	to_main || { fail "tui/typed-main$sfx" "not back at the main menu"; tui_screen | indent; return; }
	# ls: l asks for a file to load (read, never written), s goes into
	# its line; Enter: no such file.
	tui_keys 'ls -la' Enter
	step typed-ls "no such file" || return
	# In the review: a, r and u act (in memory); e asks; a line after
	# it answers no.
	step typed-review "reviewed," t || return
	tui_keys Down Down Down 'cat x; ls -a' Enter 'echo hello' Enter
	tui_settle
	to_main || { fail "tui/typed-review$sfx" "not back at the main menu"; tui_screen | indent; return; }
	# s then a: the path offered is edited, not replaced: what is
	# typed goes after it, and Enter asks again, by name.
	tui_keys s a 'ad -3; echo hello' Enter
	step typed-edited "Write the configuration to $d/rel.configad -3; echo hello? [y]es, any other key: no" || return
	tui_keys x
	step typed-edited2 "Nothing written ($d/rel.configad -3; echo hello)" || return
	tui_keys C-c
	step typed-ctrl-c "C-c again: quit without saving. " || return
	if tui_screen | tail -n 1 | grep -qE "^C-c again: quit without saving. Save the configuration, with its [0-9]+ accepted trims, to "; then
		pass "tui/typed-ctrl-c-counts$sfx"
	else
		fail "tui/typed-ctrl-c-counts$sfx" "the question does not count the accepted trims"
		tui_screen | tail -n 2 | indent
	fi
	step typed-quit "[exited 0]" C-c || return
	after=$(listing)
	if [ "$before" = "$after" ] && cmp -s "$DEBIAN_CLOUD" "$d/rel.config"; then
		pass "tui/typed-nothing-written$sfx"
	else
		fail "tui/typed-nothing-written$sfx" "files written:"
		diff <(echo "$before") <(echo "$after") | indent
	fi
}

# C-z suspends kctui (run from an interactive shell in the pane): the
# shell's prompt with the terminal as it was (canonical, echoing); fg
# brings the screen back, painted whole. C-l repaints it after another
# program wrote over it.
suspend() {
	local fx=$here/fixture d=$work/suspend TUI_W=200 TUI_H=40
	mkdir -p "$d"
	cp "$fx/config" "$d/.config"
	TUI_SOCK=kctui-test-$$-suspend
	tui_start "$fx" bash --norc --noprofile -i
	tui_keys "PS1='sh\$ '" Enter
	tui_keys "$(printf '%q ' "$KCTUI" --config "$d/.config")" Enter
	step suspend-start "Main menu" || return
	step suspend-open "Main menu › General setup" Down Enter || return
	tui_keys C-z
	step suspend-stopped "Stopped" || return
	tui_keys 'stty -a | tr " ;" "\n\n" | grep -xE -- "-?(icanon|echo|isig)" | tr "\n" " "; echo' Enter
	if tui_wait "isig icanon echo" 10; then
		pass "tui/suspend-terminal-restored$sfx"
	else
		fail "tui/suspend-terminal-restored$sfx" "the terminal not canonical, echoing with signals at the shell"
		tui_screen | indent
	fi
	tui_keys fg Enter
	step suspend-fg "Main menu › General setup" || return
	if tui_screen | head -n 1 | grep -qF " $d/.config - Fixture Kernel Configuration" &&
	   tui_screen | grep -q "Kernel log buffer size"; then
		pass "tui/suspend-fg-repaints$sfx"
	else
		fail "tui/suspend-fg-repaints$sfx" "the screen did not come back whole"
		tui_screen | indent
	fi
	# Garbage over the screen (as a background job would print), C-l.
	tmux_ display-message -p '' > /dev/null
	printf 'GARBAGE-OVER-THE-SCREEN' > "$(tmux_ display-message -p '#{pane_tty}')"
	step suspend-garbage "GARBAGE-OVER-THE-SCREEN" || return
	tui_keys C-l
	if tui_wait_gone "GARBAGE-OVER-THE-SCREEN" 10 && tui_screen | grep -q "Kernel log buffer size"; then
		pass "tui/ctrl-l-repaints$sfx"
	else
		fail "tui/ctrl-l-repaints$sfx" "C-l did not repaint"
		tui_screen | indent
	fi
	# C-c asks (the fixture's config is not what olddefconfig writes:
	# saving would change it); C-c again leaves without writing.
	step suspend-ctrl-c "C-c again: quit without saving. Save the configuration to $d/.config?" C-c || return
	tui_keys C-c
	step suspend-quit "sh\$" || return
	tui_keys 'echo "status $?"' Enter
	step suspend-status "status 0" || return
	cmp -s "$fx/config" "$d/.config" && pass "tui/suspend-nothing-written$sfx" ||
		fail "tui/suspend-nothing-written$sfx" "the config was written"
}

# Issue 35, item 5: decisions belong to a config. Two configs in one
# directory with the old shared .kctui-decisions: the first command on
# c1 moves it to c1.kctui-decisions and says so; c4 has none of c1's
# decisions (suggest and export on c4 honour nothing of c1); accepting
# in the browser on c1 and quitting without saving leaves c1's file as
# it was; decide on c4 writes c4's own file.
real_decisions() {
	local d=$work/dec bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	local sub="Enable the block layer > IO Schedulers"
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/c1"
	cp "$DEBIAN_CLOUD" "$d/c4"
	printf 'CONFIG_MQ_IOSCHED_KYBER keep  # in the old shared file\n' > "$d/.kctui-decisions"
	(cd "$d" && "$KCTUI" -C "$TREE" --config c1 -e "$bundle" suggest) \
		> "$work/dec-s1" 2> "$work/dec-e1"
	if grep -qxF "kctui: decisions moved from $d/.kctui-decisions to $d/c1.kctui-decisions: each configuration has its own file now, and the old one is read no more" "$work/dec-e1" &&
	   grep -qF "decisions ($d/c1.kctui-decisions): 1 kept, 0 trimmed" "$work/dec-s1" &&
	   [ ! -e "$d/.kctui-decisions" ]; then
		pass "tui/decisions-migrated$sfx"
	else
		fail "tui/decisions-migrated$sfx" "the old file not moved to c1's, or not said:"
		cat "$work/dec-e1" | indent
		grep decisions "$work/dec-s1" | indent
	fi
	(cd "$d" && "$KCTUI" -C "$TREE" --config c4 -e "$bundle" suggest) \
		> "$work/dec-s4" 2> "$work/dec-e4"
	if grep -qF "decisions ($d/c4.kctui-decisions): 0 kept, 0 trimmed" "$work/dec-s4" &&
	   ! grep -q "moved" "$work/dec-e4"; then
		pass "tui/decisions-per-config$sfx"
	else
		fail "tui/decisions-per-config$sfx" "c4 got c1's decisions:"
		cat "$work/dec-e4" | indent
		grep decisions "$work/dec-s4" | indent
	fi
	cp "$d/c1.kctui-decisions" "$work/dec-c1-before"
	TUI_SOCK=kctui-test-$$-decisions
	tui_start "$d" "$KCTUI" -C "$TREE" --config c1 -e "$bundle"
	step dec-loaded "suggested trim" -t 120 || return
	step dec-list "reviewed," t || return
	step dec-sub "Trim review › $sub" Down Down Down Down Down Enter || return
	step dec-accept "trimmed: set to n" a || return
	step dec-quit-ask "Save the configuration" Q || return
	step dec-quit "[exited 0]" n || return
	tui_stop
	if cmp -s "$work/dec-c1-before" "$d/c1.kctui-decisions" &&
	   cmp -s "$DEBIAN_CLOUD" "$d/c1" && [ ! -e "$d/c4.kctui-decisions" ]; then
		pass "tui/decisions-quit-unsaved$sfx"
	else
		fail "tui/decisions-quit-unsaved$sfx" "a quit without saving changed the decisions:"
		diff "$work/dec-c1-before" "$d/c1.kctui-decisions" | indent
	fi
	(cd "$d" && "$KCTUI" -C "$TREE" --config c4 decide CONFIG_IOSCHED_BFQ keep "c4's own") > "$work/dec-d4" 2>&1
	if grep -qx "CONFIG_IOSCHED_BFQ keep  # c4's own" "$d/c4.kctui-decisions" &&
	   ! grep -q IOSCHED_BFQ "$d/c1.kctui-decisions"; then
		pass "tui/decisions-decide-own$sfx"
	else
		fail "tui/decisions-decide-own$sfx" "decide on c4 did not write c4's file:"
		indent < "$work/dec-d4"
	fi
}

# Issue 35, item 8: enable --apply says every change it writes: the
# plan's steps, what they drag along, and, under its own heading, the
# tree's update of the input (as olddefconfig); every option whose line
# differs between the input and the file written is named.
real_enable_cli() {
	local d=$work/enable missing=
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/in.config"
	"$KCTUI" -C "$TREE" --config "$d/in.config" enable SENSORS_LIS3_SPI \
	    --apply -o "$d/out.config" > "$d/stdout" 2> "$d/stderr"
	# name=value of every option line ("n" for is not set).
	opts() { sed -n 's/^CONFIG_\([^=]*\)=\(.*\)/\1=\2/p; s/^# CONFIG_\(.*\) is not set$/\1=n/p' "$1" | sort; }
	# A bool or tristate without a line is n (as conf reads it).
	while read -r name; do
		grep -q "CONFIG_$name[:=]" "$d/stdout" || missing+=" $name"
	done < <(awk -F= 'FNR == NR { a[$1] = $2; next } { b[$1] = $2 }
		END { for (n in a) if (!(n in b) && a[n] != "n") print n
		      for (n in b) if ((n in a) ? a[n] != b[n] : b[n] != "n") print n }' \
		<(opts "$d/in.config") <(opts "$d/out.config") | sort -u)
	if [ -z "$missing" ] &&
	   grep -qx "Changed by the tree's update of the input (as olddefconfig; written whatever the plan):" "$d/stdout" &&
	   grep -qx '  CONFIG_MODULE_SIG_ALL: n -> y' "$d/stdout" &&
	   grep -qx '  CONFIG_DEBUG_INFO_BTF_MODULES: y -> n' "$d/stdout"; then
		pass "tui/enable-says-every-change$sfx" "($(grep -c '^  CONFIG_' "$d/stdout") listed)"
	else
		fail "tui/enable-says-every-change$sfx" "not listed:$missing"
		head -n 20 "$d/stdout" | indent
	fi
}

# review_at SYMBOL: from the main menu, the review opened at a candidate
# (/ finds it, Enter jumps, t opens its subsystem with the cursor on it).
review_at() {
	local n=$1 sym=$2
	step "$n-search" "1 match" / "^$sym\$" Enter || return
	step "$n-jump" " CONFIG_$sym " Enter || return
	step "$n-open" "Trim review ›" t || return
	tui_wait_gone "computing" 30
	tui_settle
}

# every_line: the subsystem view's lines, top to bottom, page by page
# (each line once: candidates and the options dragged along are unique).
every_line() {
	local i prev= cur
	tui_keys Home
	tui_settle
	for ((i = 0; i < 60; i++)); do
		cur=$(tui_screen | sed -n '5,27p')
		printf '%s\n' "$cur"
		[ "$cur" = "$prev" ] && break
		prev=$cur
		tui_keys NPage
		tui_settle
	done | awk '!seen[$0]++'
}

# Issue 35, items 3 and 6, on Debian's amd64 config with the desktop-vm
# bundle. "PCI sound devices": the view lists every option accepting it
# turns off, each once (the candidates, then what they drag along in the
# subsystem and in other menus, each with its reason), as many as "turns
# off N" says, the same options as the export's report of that subsystem
# (kctui export --accept), TOUCHSCREEN_WM97XX among those elsewhere
# (Input, through AC97_BUS: only when several candidates go together).
# Then "Wireless LAN" accepted: the row of its child "Ralink driver
# support" is recomputed (nothing left to turn off, every candidate
# reviewed), and inside it the candidates are shown off, no ✂.
real_effects() {
	local d=$work/effects bundle=$KCTUI_REPO/tests/fixtures/evidence/desktop-vm
	local sub="Device Drivers > Sound card support > Advanced Linux Sound Architecture > PCI sound devices"
	local n listed names
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_AMD64" "$d/c1"
	"$KCTUI" -C "$TREE" --config "$d/c1" -e "$bundle" export \
	    --accept "$sub" -o "$d/out" --report "$d/out.md" > "$d/export.out" 2>&1
	TUI_SOCK=kctui-test-$$-effects
	tui_start "$d" "$KCTUI" -C "$TREE" --config c1 -e "$bundle"
	step effects-loaded "suggested trim" -t 120 || return
	review_at effects SND_AD1889 || return
	step effects-sub "Arch… > PCI sound devices" || return
	n=$(tui_screen | sed -n 's/.*; turns off \([0-9]*\): .*/\1/p')
	every_line > "$d/lines"
	# Candidate rows (state ✂), and the groups' option lines (not the
	# "also" lines under one candidate: what it alone turns off).
	grep -E '^   ✂ ' "$d/lines" | sed -E 's/.*CONFIG_([A-Za-z0-9_]+).*/\1/' > "$d/cands"
	sed -n '/^ Dragged along/,$p' "$d/lines" | grep -E '^   [├└]─ CONFIG_' |
		sed -E 's/^.*─ CONFIG_([A-Za-z0-9_]+).*/\1/' > "$d/dragged"
	listed=$(cat "$d/cands" "$d/dragged" | sort -u | wc -l)
	# The report's options turned off: accepted, and dragged to n.
	names=$(sed -n 's/^- `CONFIG_\([^`]*\)` (.*/\1/p; s/^  - dragged along: `CONFIG_\([^`]*\)` ([^ ]* -> n,.*/\1/p' "$d/out.md" | sort -u)
	if [ -n "$n" ] && [ "$n" = "$listed" ] &&
	   grep -q "^- removed: $n options" "$d/out.md" &&
	   [ "$names" = "$(cat "$d/cands" "$d/dragged" | sort -u)" ]; then
		pass "tui/effects-every-line$sfx" "(turns off $n = $listed lines = the report's \"removed: $n\", the same options)"
	else
		fail "tui/effects-every-line$sfx" "turns off '$n', $listed lines, report: $(grep '^- removed' "$d/out.md")"
		diff <(echo "$names") <(cat "$d/cands" "$d/dragged" | sort -u) | head -n 10 | indent
	fi
	if grep -qE '^   [├└]─ CONFIG_TOUCHSCREEN_WM97XX m→n  depends on AC97_BUS  in Device Drivers > Input .*> Touchscreens' "$d/lines" &&
	   sed -n '/^ Dragged along in other menus/,$p' "$d/lines" | grep -q TOUCHSCREEN_WM97XX; then
		pass "tui/effects-elsewhere$sfx"
	else
		fail "tui/effects-elsewhere$sfx" "TOUCHSCREEN_WM97XX not listed elsewhere with its reason"
		grep -n "Dragged\|WM97" "$d/lines" | indent
	fi
	tui_keys Home
	step effects-golden "Dragged along in this subsystem" End || return
	screen effects-groups
	# Item 6: accept Wireless LAN whole; its child's row is recomputed.
	tui_keys Escape Escape
	to_main_menu || return
	review_at stale ADM8211 || return
	step stale-accepted "options trimmed" Home a || return
	step stale-list "reviewed," Escape || return
	tui_settle
	if tui_screen | grep -E 'Ralink driver support' | grep -qE '^ +. +7/7 .* 0 off'; then
		pass "tui/stale-child-row$sfx" "($(tui_screen | grep 'Ralink driver support' | sed 's/  */ /g'))"
	else
		fail "tui/stale-child-row$sfx" "the Ralink row not recomputed after Wireless LAN"
		tui_screen | grep -E 'Wireless|Ralink' | indent
	fi
	tui_keys Escape
	to_main_menu || return
	review_at stale-ralink RT2400PCI || return
	if tui_screen | grep -qE 'CONFIG_RT2400PCI' && ! tui_screen | grep -qE '✂ +m +CONFIG_RT' &&
	   tui_screen | grep -E 'CONFIG_RT2400PCI' | grep -qE '^  off +m +CONFIG_RT2400PCI' &&
	   tui_screen | grep -q '; turns off 0'; then
		pass "tui/stale-marks$sfx"
	else
		fail "tui/stale-marks$sfx" "candidates already off still marked"
		tui_screen | indent
	fi
	screen stale-ralink
	tui_stop
}

# Issue 37, item 12: a decision made beside the browser. The browser
# accepts "Processor type and features" (X86_MSR among its candidates);
# `kctui decide CONFIG_X86_MSR keep` runs beside it on the same config;
# u in the browser undoes its own accept of the two others and says the
# third was decided outside; the row shows [keep]. A second decide
# (X86_CPUID keep) is shown at the save (its row [keep]), and the file
# written holds both keeps and none of the undone trims.
real_beside() {
	local d=$work/beside bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/c1"
	TUI_SOCK=kctui-test-$$-beside
	tui_start "$d" "$KCTUI" -C "$TREE" --config c1 -e "$bundle"
	step beside-loaded "suggested trim" -t 120 || return
	review_at beside X86_MSR || return
	step beside-accept "3 options trimmed" Home a || return
	(cd "$d" && "$KCTUI" -C "$TREE" --config c1 decide CONFIG_X86_MSR keep "rdmsr needs it") \
		> "$d/decide1" 2>&1
	step beside-undo "Undone: 2 options as before; 1 decided outside the browser since kept its decision" u || return
	if tui_screen | grep -E 'CONFIG_X86_MSR ' | grep -q '\[keep\]' &&
	   tui_screen | grep -E 'CONFIG_X86_CPUID ' | grep -q '✂'; then
		pass "tui/beside-undo-own-only$sfx"
	else
		fail "tui/beside-undo-own-only$sfx" "the outside keep not shown, or the undo not done"
		tui_screen | indent
	fi
	(cd "$d" && "$KCTUI" -C "$TREE" --config c1 decide CONFIG_X86_CPUID keep "outside, second") \
		> "$d/decide2" 2>&1
	step beside-save-ask "Save the configuration to $d/c1 (and the trim decisions)?" s || return
	step beside-saved "Configuration written to $d/c1" y || return
	if tui_screen | grep -E 'CONFIG_X86_CPUID ' | grep -q '\[keep\]' &&
	   grep -qx 'CONFIG_X86_MSR keep  # rdmsr needs it' "$d/c1.kctui-decisions" &&
	   grep -qx 'CONFIG_X86_CPUID keep  # outside, second' "$d/c1.kctui-decisions" &&
	   ! grep -q ' trim' "$d/c1.kctui-decisions"; then
		pass "tui/beside-save-shows$sfx"
	else
		fail "tui/beside-save-shows$sfx" "the decisions beside the browser lost or not shown:"
		indent < "$d/c1.kctui-decisions"
		tui_screen | indent
	fi
	tui_stop
}

# Issue 35: after a load (l), the trim suggestions are those of the file
# loaded (they stayed those computed at start): c2 is c1 with the IO
# schedulers already off; once loaded, the review has the candidates
# `kctui suggest` gives for c2, and no IO Schedulers row.
real_retrim() {
	local d=$work/retrim bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	local want
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/c1"
	sed 's/^CONFIG_\(IOSCHED_BFQ\|MQ_IOSCHED_KYBER\)=.*/# CONFIG_\1 is not set/' "$DEBIAN_CLOUD" > "$d/c2"
	want=$("$KCTUI" -C "$TREE" --config "$d/c2" -e "$bundle" suggest 2>/dev/null |
		sed -n '1s/^# \([0-9]*\) candidates in \([0-9]*\) subsystems.*/\2 reviewed, \1 candidates/p')
	TUI_SOCK=kctui-test-$$-retrim
	tui_start "$d" "$KCTUI" -C "$TREE" --config c1 -e "$bundle"
	step retrim-loaded "suggested trim" -t 120 || return
	step retrim-list "IO Schedulers" t || return
	step retrim-main "Main menu" Escape || return
	step retrim-load-ask "Load configuration: " l || return
	tui_keys C-u "$d/c2" Enter
	step retrim-done "Trim suggestions recomputed for $d/c2" -t 120 || return
	step retrim-list2 "Trim review:" t || return
	if [ -n "$want" ] && tui_screen | sed -n 2p | grep -qF "of $want, 0 accepted" &&
	   ! tui_screen | grep -q "IO Schedulers"; then
		pass "tui/retrim-after-load$sfx" "($want, as kctui suggest on the file loaded)"
	else
		fail "tui/retrim-after-load$sfx" "the review not recomputed for c2 (want: $want)"
		tui_screen | head -n 12 | indent
	fi
	tui_stop
}

# Issue 35, item 9: the review at 100x30, 80x24 and 60x20 (goldens of
# the list and of a subsystem at each size): at 80 the candidates' saving
# leaves its column to the prompt and the reason (the selected row's
# reason and saving on the bottom line); at 60 one column (the list's
# counts and path, the candidates' names; the rest on the bottom line);
# at 100 the message after an accept never runs into the "modified"
# marker (two blanks at least, or no marker).
real_sizes() {
	local d=$work/sizes bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	local size w h last
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	cp "$DEBIAN_CLOUD" "$d/c1"
	for size in 100x30 80x24 60x20; do
		w=${size%x*} h=${size#*x}
		TUI_SOCK=kctui-test-$$-sizes-$size
		TUI_W=$w TUI_H=$h tui_start "$d" "$KCTUI" -C "$TREE" --config c1 -e "$bundle"
		# t while the evidence loads opens the review when it is
		# done (the legend's words differ by width).
		step "sizes-$size-start" "Main menu" || return
		step "sizes-$size-list" "reviewed," -t 120 t || return
		screen "sizes-$size-list"
		step "sizes-$size-sub" "IO Schedulers" Down Down Down Down Down Enter || return
		tui_wait_gone "computing" 30
		tui_settle
		screen "sizes-$size-sub"
		tui_keys Down
		tui_settle
		# The selected candidate's reason, whole, on the bottom line.
		# At 60 its prompt first, then as much of it as fits.
		if tui_screen | tail -n 2 | head -n 1 | grep -qF "module not loaded; no device, driver, mount or trace names it" ||
		   { [ "$w" -lt 72 ] && tui_screen | tail -n 2 | head -n 1 | grep -qF " I/O scheduler: module not loaded; no device"; } ||
		   [ "$w" -ge 100 ]; then
			pass "tui/sizes-$size-reason$sfx"
		else
			fail "tui/sizes-$size-reason$sfx" "the reason not readable"
			tui_screen | indent
		fi
		step "sizes-$size-accept" "2 options trimmed" Up a || return
		last=$(tui_screen | tail -n 1)
		if ! printf '%s\n' "$last" | grep -q 'modified$' ||
		   printf '%s\n' "$last" | grep -qE '(^ *modified$|[^ ]   *modified$)' &&
		   ! printf '%s\n' "$last" | grep -qE '[^ ] modified$'; then
			pass "tui/sizes-$size-marker$sfx"
		else
			fail "tui/sizes-$size-marker$sfx" "the message runs into the marker: $last"
		fi
		tui_stop
	done
}

# An x86_64 bundle on an arm64 config (issue 35, item 10a): the browser
# says so where suggest and export refuse (the tree's own arm64
# defconfig, made by kctui).
real_arch() {
	local d=$work/arch bundle=$KCTUI_REPO/tests/fixtures/evidence/cloud-vm
	kctui_tree_ensure > /dev/null 2>&1 || return
	mkdir -p "$d"
	"$KCTUI" -C "$TREE" --config "$d/arm64.config" ARCH=arm64 defconfig > /dev/null 2>&1 ||
		{ fail "tui/arch-setup$sfx" "ARCH=arm64 defconfig failed"; return; }
	TUI_SOCK=kctui-test-$$-arch
	tui_start "$TREE" "$KCTUI" --config "$d/arm64.config" -e "$bundle" \
	    --decisions "$d/decisions" ARCH=arm64
	step arch-said "was recorded on x86_64" -t 120 || return
	# the message line is cut at the width: its start, the bundle's
	# architecture named
	if tui_screen | tail -n 1 | grep -qF "cloud-vm was recorded on x86_64 (x86)"; then
		pass "tui/arch-said$sfx"
	else
		fail "tui/arch-said$sfx" "no word of the architecture"
		tui_screen | indent
	fi
}

# to_main_menu: Escape until the main menu.
to_main_menu() {
	local i
	for ((i = 0; i < 10; i++)); do
		tui_settle
		[ "$(tui_screen | sed -n 2p)" = " Main menu" ] && return 0
		tui_keys Escape
	done
	fail "tui/to-main$sfx" "not back at the main menu"
	return 1
}

# A scenario that stops early leaves its server: stop it (its own socket).
# KCTUI_TUI_ONLY="colours real_trim" runs some scenarios only.
for sc in ${KCTUI_TUI_ONLY:-fixture typed suspend dumb bad_theme colours real real_trim real_kyber real_paths real_decisions real_enable_cli real_effects real_beside real_retrim real_sizes real_review real_forced real_nontwin real_help real_arch real_small real_savings real_large real_612}; do
	case $sc in
	real_612) ( real_612 ) ;;	# it changes TREE
	*) "$sc" ;;
	esac
	tui_stop
done
