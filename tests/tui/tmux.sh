# shellcheck shell=bash
# tests/tui/tmux.sh - sourced helper: drive kctui in a private tmux server
# (tmux regress/ style). The server is ours alone (-L, -f /dev/null), the
# window has a fixed size, and the screen is read with capture-pane.
#
#   tui_start DIR CMD...   start CMD in DIR in a 100x30 window
#   tui_keys KEY...        tmux send-keys
#   tui_wait TEXT [SECS]   poll the screen until TEXT appears (default 20 s)
#   tui_screen             the screen as text (trailing blanks removed)
#   tui_sgr TEXT...        the colours and attributes at each TEXT
#                          (capture-pane -e read by sgr.pl), one a line
#   tui_stop               kill the server

TUI_SOCK=kctui-test-$$-${RANDOM}
TUI_W=${TUI_W:-100}
TUI_H=${TUI_H:-30}

tmux_() { tmux -L "$TUI_SOCK" -f /dev/null "$@"; }

tui_start() {
	local dir=$1; shift
	local cmd
	cmd=$(printf '%q ' "$@")
	tmux_ new-session -d -x "$TUI_W" -y "$TUI_H" -c "$dir" \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color $cmd; echo \"[exited \$?]\"; sleep 600"
	tmux_ set-option -g remain-on-exit on >/dev/null 2>&1 || true
}

tui_keys() { tmux_ send-keys "$@"; }

tui_screen() { tmux_ capture-pane -p | sed 's/[[:space:]]*$//'; }

tui_sgr() { tmux_ capture-pane -e -p | perl "$(dirname "${BASH_SOURCE[0]}")/sgr.pl" "$@"; }

# tui_wait TEXT [SECS]: 0 when TEXT is on screen, 1 after SECS.
tui_wait() {
	local text=$1 secs=${2:-20} i
	for ((i = 0; i < secs * 20; i++)); do
		if tui_screen | grep -qF -- "$text"; then
			return 0
		fi
		sleep 0.05
	done
	return 1
}

# tui_wait_gone TEXT [SECS]: until TEXT is no longer on screen.
tui_wait_gone() {
	local text=$1 secs=${2:-20} i
	for ((i = 0; i < secs * 20; i++)); do
		if ! tui_screen | grep -qF -- "$text"; then
			return 0
		fi
		sleep 0.05
	done
	return 1
}

# tui_settle: until the worker is done and two captures agree.
tui_settle() {
	local a b i
	tui_wait_gone "recomputing" 30 || return 1
	a=$(tui_screen)
	for ((i = 0; i < 100; i++)); do
		sleep 0.05
		b=$(tui_screen)
		[ "$a" = "$b" ] && return 0
		a=$b
	done
	return 1
}

tui_stop() { tmux_ kill-server 2>/dev/null || true; }
