# shellcheck shell=bash
# tests/lib.sh - conventions shared by every kctui test script.
#
# RESULT LINES.  A test reports each result on stdout as one line
#     PASS name [free text]
#     FAIL name [free text]
# followed, for a failure, by any number of detail lines, each indented (so
# that no detail line starts with PASS or FAIL).  Optional:
#     SKIP name: reason
# tests/run.sh counts the lines that start with "PASS " and "FAIL "; nothing
# else on stdout or stderr is counted.  A test script that exits non-zero
# without printing any FAIL line is counted as one failure.  C unit programs
# (tests/unit/*.c) print the same lines with printf.
#
# ENVIRONMENT given to test scripts by tests/run.sh:
#     KCTUI         kctui binary under test (absolute path)
#     KCTUI_FLAVOR  "normal" or "asan" (a name suffix for results)
#     KCTUI_REPO    repository root (absolute path)
#     KCTUI_TMP     scratch directory for this run (removed afterwards)
#     KCTUI_CACHE_DIR  kctui's own $(shell ...) result cache, a scratch dir
#
# Helpers (source this file):
#     pass NAME [TEXT]          print "PASS NAME [TEXT]"
#     fail NAME [TEXT]          print "FAIL NAME [TEXT]"; print details after
#                               it through `indent`
#     fail_with NAME TEXT CMD...  FAIL line, then CMD's output indented
#     skip NAME REASON
#     indent                    filter: indent every line by four spaces
#     same_file NAME A B        PASS if A and B exist and are byte-identical, else FAIL
#                               with the first differing lines (diff | head -40)
#     kctui_clean_env           unset variables that would change what
#                               make/conf/kctui do (ARCH, CC, KCONFIG_*, ...)
#     elapsed_since T0          seconds since T0 (from now_ns), e.g. "1.42"
#     abspath PATH              PATH made absolute (from the current directory)
#     kctui_binary              set KCTUI to the binary under test, absolute
#                               (default: the repository's kctui)
#     flavor_suffix             "" for KCTUI_FLAVOR normal (or unset), else
#                               "[FLAVOR]", the suffix of result names
#     kctui_workdir NAME        set work to a new scratch directory
#                               NAME.XXXXXX (under $KCTUI_TMP, else $TMPDIR,
#                               else /tmp) removed on exit
#     kctui_test_setup NAME     what a test of the binary starts with:
#                               kctui_clean_env, kctui_binary, sfx set to
#                               flavor_suffix, kctui_workdir NAME
#     kctui_need_binary NAME    FAIL NAME and exit if $KCTUI is not executable

KCTUI_REPO=${KCTUI_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}

indent() { sed 's/^/    /'; }

# A result's name, in $_rn: a test of the real tree run on another series
# than 6.1 (KCTUI_KVER, tests/real/*-6.12.sh) reports real-KVER/... for
# real/... (set, not printed: no subshell for every result line)
kctui_result_name() {
	case ${KCTUI_KVER:-6.1}:$1 in
	6.1:*) _rn=$1 ;;
	*:real/*) _rn=real-$KCTUI_KVER/${1#real/} ;;
	*) _rn=$1 ;;
	esac
}
pass() { kctui_result_name "$1"; shift; printf 'PASS %s%s\n' "$_rn" "${*:+ $*}"; }
fail() { kctui_result_name "$1"; shift; printf 'FAIL %s%s\n' "$_rn" "${*:+ $*}"; }
skip() { kctui_result_name "$1"; shift; printf 'SKIP %s: %s\n' "$_rn" "$*"; }

fail_with() {
	local n=$1 text=$2; shift 2
	fail "$n" "$text"
	"$@" 2>&1 | indent
}

# same_file NAME EXPECTED ACTUAL [TEXT]
same_file() {
	local n=$1 a=$2 b=$3 text=${4:-}
	if [ ! -e "$a" ] || [ ! -e "$b" ]; then
		fail "$n" "$text"
		printf '%s: %s\n%s: %s\n' "$a" "$([ -e "$a" ] && echo exists || echo missing)" \
			"$b" "$([ -e "$b" ] && echo exists || echo missing)" | indent
		return 1
	fi
	if cmp -s "$a" "$b"; then
		pass "$n" "$text"
		return 0
	fi
	fail "$n" "$text"
	diff -u "$a" "$b" | head -40 | indent
	return 1
}

now_ns() { date +%s%N; }
elapsed_since() {
	local t1
	t1=$(now_ns)
	awk -v a="$1" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'
}

# Variables of the caller's environment that change what the kernel's
# Makefile, conf or kctui do; tests set what they need explicitly.
kctui_clean_env() {
	local v
	for v in ARCH SRCARCH SUBARCH CROSS_COMPILE CROSS_COMPILE_COMPAT LLVM LLVM_IAS \
		CC LD AR NM OBJCOPY HOSTCC HOSTCXX CLANG_FLAGS USERCFLAGS USERLDFLAGS \
		RUSTC BINDGEN PAHOLE KERNELVERSION CC_VERSION_TEXT O KBUILD_OUTPUT \
		srctree objtree MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES \
		$(compgen -v | grep -E '^(KCONFIG_|KBUILD_|CONFIG_)'); do
		unset "$v"
	done
}

abspath() { case $1 in /*) printf '%s\n' "$1";; *) printf '%s\n' "$PWD/$1";; esac; }

kctui_binary() { KCTUI=$(abspath "${KCTUI:-$KCTUI_REPO/kctui}"); }

flavor_suffix() {
	local f=${KCTUI_FLAVOR:-normal}
	[ "$f" = normal ] || printf '[%s]' "$f"
}

kctui_workdir() {
	work=$(mktemp -d "${KCTUI_TMP:-${TMPDIR:-/tmp}}/$1.XXXXXX") || exit 1
	trap 'rm -rf "$work"' EXIT
}

kctui_test_setup() {
	kctui_clean_env
	kctui_binary
	sfx=$(flavor_suffix)
	kctui_workdir "$1"
}

kctui_need_binary() {
	[ -x "$KCTUI" ] && return 0
	fail "$1" "no executable $KCTUI"
	exit 1
}

# check_attr_tsv TSV NAME SYM VERDICT ITEM: the line of CONFIG_SYM in TSV
# (kctui evidence --format tsv) has VERDICT and ITEM among its items; the
# result is named NAME.
check_attr_tsv() {
	local tsv=$1 name=$2 sym=$3 verdict=$4 item=$5 line
	line=$(grep -P "^CONFIG_$sym\t" "$tsv")
	if [ -z "$line" ]; then
		fail "$name" "no line for CONFIG_$sym"
	elif [ "$(cut -f2 <<<"$line")" != "$verdict" ]; then
		fail "$name" "verdict $(cut -f2 <<<"$line"), want $verdict"
	elif ! cut -f3 <<<"$line" | tr ';' '\n' | grep -qxF -- "$item"; then
		fail "$name" "no item $item"
		cut -f3 <<<"$line" | tr ';' '\n' | head -5 | indent
	else
		pass "$name" "($item)"
	fi
}
