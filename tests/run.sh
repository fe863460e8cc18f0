#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/run.sh - run every test group and count results (see tests/lib.sh
# for the PASS/FAIL line convention).  The last line of output is always
#     N passed, N failed
# and the exit status is non-zero if anything failed.  `make check` builds
# ./kctui and build-asan/kctui and runs this.
#
# Groups:
#   unit     tests/layers.sh (the includes keep README's layers), then
#            tests/unit/*.c, each built against the library twice (normal
#            and ASan+UBSan: build/unit/NAME, build-asan/unit/NAME) and
#            run, KCTUI_UNIT_JOBS (default: the CPUs) at a time
#   kconfig  tests/kconfig/run.sh (fixture tests), with kctui and asan kctui
#   real     tests/real/*.sh (but not the helpers tree.sh, demo.sh): kctui
#            against the kernel's conf on Debian's linux-source-6.1, with
#            both binaries (oracle results are shared between the two passes)
#   tui      tests/tui/run.sh: the interactive browser in a private tmux
#            server, screens against goldens, saved files against
#            olddefconfig (fixture tree and the real tree), both binaries
#   fuzz     a short run of every build-fuzz/fuzz_* (if clang's libFuzzer
#            runtime exists)
#
# Environment:
#   KCTUI, KCTUI_ASAN         binaries (default ./kctui, build-asan/kctui)
#   KCTUI_GROUPS              groups to run (default "unit kconfig real tui fuzz")
#   KCTUI_ASAN_REAL_CASES     real cases for the asan binary (default "all";
#                             e.g. "olddefconfig-amd64 savedefconfig-amd64")
#   KCTUI_ASAN_612_CASES      compare-6.12 cases for the asan binary (default
#                             ASAN_612_CASES below; the other *-6.12.sh run
#                             with the normal binary only)
#   KCTUI_UNIT_JOBS           unit programs at once (default: the CPUs)
#   FUZZ_SMOKE_SECONDS        per fuzzer (default 5)
#   KCTUI_TEST_LOG            full log (default build/check.log)
set -u

cd "$(dirname "$0")/.." || exit 1
REPO=$PWD
# shellcheck source=lib.sh
. tests/lib.sh
kctui_clean_env
export KCTUI_REPO=$REPO

KCTUI=$(abspath "${KCTUI:-./kctui}")
KCTUI_ASAN=$(abspath "${KCTUI_ASAN:-build-asan/kctui}")
GROUPS_WANTED=${KCTUI_GROUPS:-unit kconfig real tui fuzz}
ASAN_REAL_CASES=${KCTUI_ASAN_REAL_CASES:-all}
# 6.12 under ASan: olddefconfig of Debian's config (the 6.8 reading and
# 6.11 choices), allmodconfig, savedefconfig and a defconfig.
ASAN_612_CASES="olddefconfig-amd64 allmodconfig savedefconfig-amd64 defconfig-arm64"
FUZZ_SMOKE_SECONDS=${FUZZ_SMOKE_SECONDS:-5}

# Sanitizers: any report makes the program exit non-zero.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Leaks inside system libraries we can't fix (see the file).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$REPO/tests/lsan.supp:print_suppressions=0}

KCTUI_TMP=$(mktemp -d "${TMPDIR:-/tmp}/kctui-test.XXXXXX") || exit 1
export KCTUI_TMP
export KCTUI_CACHE_DIR=$KCTUI_TMP/shell-cache
export KCTUI_ORACLE_DIR=$KCTUI_TMP/oracle
trap 'rm -rf "$KCTUI_TMP"' EXIT

LOG=${KCTUI_TEST_LOG:-$REPO/build/check.log}
mkdir -p "$(dirname "$LOG")"
: > "$LOG"

npass=0 nfail=0 nskip=0
failures=()
run_start=$(now_ns)

# count FILE: add FILE's PASS/FAIL/SKIP lines to the totals
count() {
	local p f s
	p=$(grep -c '^PASS ' "$1")
	f=$(grep -c '^FAIL ' "$1")
	s=$(grep -c '^SKIP ' "$1")
	last_results=$((p + f + s))
	npass=$((npass + p)); nfail=$((nfail + f)); nskip=$((nskip + s))
	mapfile -t -O "${#failures[@]}" failures < <(sed -n 's/^FAIL \([^ ]*\).*/\1/p' "$1")
}

# with_flavor SUFFIX: filter appending SUFFIX to every result name that
# does not already end in it
with_flavor() {
	if [ -z "$1" ]; then cat; return; fi
	local s=$1 q
	q=$(printf '%s' "$s" | sed 's/[][\.*^$]/\\&/g')
	sed -E "/^(PASS|FAIL|SKIP) [^ :]*$q(:| |\$)/!s/^(PASS|FAIL|SKIP) ([^ :]+)/\1 \2$q/"
}

# run NAME TIMEOUT FILTER CMD...: run a test command; its output goes to the
# terminal and the log, through FILTER (a function name or "cat").  A command
# that fails without reporting a failure counts as one failure.
run() {
	local name=$1 secs=$2 filter=$3; shift 3
	local out=$KCTUI_TMP/out.$$ rc
	timeout --kill-after=10 "$secs" "$@" < /dev/null 2>&1 | $filter > "$out"
	rc=${PIPESTATUS[0]}
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out"; then
		if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
			fail "$name" "timed out after $secs s" >> "$out"
		else
			fail "$name" "exited with status $rc without reporting a failure" >> "$out"
		fi
	fi
	cat "$out"; cat "$out" >> "$LOG"
	count "$out"
	rm -f "$out"
}

note() { printf '%s\n' "$*"; printf '%s\n' "$*" >> "$LOG"; }

group_begin() { group_t0=$(now_ns); note "== $1"; }
group_end() { note "== $1 done in $(elapsed_since "$group_t0") s"; }

want_group() { case " $(echo $GROUPS_WANTED) " in *" $1 "*) return 0;; esac; return 1; }

# ------------------------------------------------------------------- unit
# The unit programs run in parallel, as many at once as there are CPUs
# (KCTUI_UNIT_JOBS), each into its own file; their results are then read
# in order, so the log reads as a serial run's.
unit_prefix() { sed -E "s/^(PASS|FAIL|SKIP) /\1 unit\/$unit_name$unit_sfx: /"; }
# unit_bg NAME DIR SUFFIX OUT: run one program (built already) into OUT,
# its exit status into OUT.rc
unit_bg() {
	unit_name=$1 unit_sfx=$3
	local bin=$2/unit/$1 out=$4
	if [ ! -x "$bin" ]; then
		{ fail "unit/$1$3" "build failed"
		  make -s --no-print-directory "$bin" 2>&1 | indent; } > "$out"
		echo 0 > "$out.rc"
		return
	fi
	timeout --kill-after=10 300 "$bin" < /dev/null 2>&1 | unit_prefix > "$out"
	echo "${PIPESTATUS[0]}" > "$out.rc"
}
# unit_collect NAME SUFFIX OUT: its results into the totals and the log
unit_collect() {
	local rc
	rc=$(cat "$3.rc" 2>/dev/null || echo 1)
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$3"; then
		if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
			fail "unit/$1$2" "timed out after 300 s" >> "$3"
		else
			fail "unit/$1$2" "exited with status $rc without reporting a failure" >> "$3"
		fi
	fi
	cat "$3"; cat "$3" >> "$LOG"
	count "$3"
	# A program that reported nothing at all is a failure too.
	if [ "$last_results" -eq 0 ]; then
		fail "unit/$1$2" "printed no PASS/FAIL lines" | tee -a "$LOG"
		nfail=$((nfail + 1)); failures+=("unit/$1$2")
	fi
	rm -f "$3" "$3.rc"
}

if want_group unit; then
	group_begin "unit (tests/unit/*.c)"
	# Unit tests that read the real tree (env_derive, the Kbuild and
	# source indexes) get it here, unpacked first if needed, so they
	# never skip on a fresh machine.
	if [ -z "${KCTUI_TREE:-}" ]; then
		# shellcheck source=real/tree.sh
		. tests/real/tree.sh
		if kctui_tree_ensure >>"$LOG" 2>&1; then
			export KCTUI_TREE=$TREE
		else
			note "unit: could not unpack the real tree (see $LOG)"
		fi
	fi
	shopt -s nullglob
	units=(tests/unit/*.c)
	shopt -u nullglob
	if [ ${#units[@]} -eq 0 ]; then
		note "SKIP unit: no tests/unit/*.c"
		nskip=$((nskip + 1))
	fi
	run layers 60 cat bash tests/layers.sh
	# Built first, in parallel (a program that fails to build says so
	# in its own result below).
	make -s --no-print-directory -j"$(nproc)" unit-bins > "$KCTUI_TMP/unit-build.log" 2>&1
	ujobs=${KCTUI_UNIT_JOBS:-$(nproc)}
	for u in "${units[@]}"; do
		n=$(basename "$u" .c)
		for d in build build-asan; do
			while [ "$(jobs -rp | wc -l)" -ge "$ujobs" ]; do
				wait -n
			done
			sf=; [ $d = build-asan ] && sf="[asan]"
			unit_bg "$n" "$d" "$sf" "$KCTUI_TMP/unit.$n.$d" &
		done
	done
	wait
	for u in "${units[@]}"; do
		n=$(basename "$u" .c)
		unit_collect "$n" "" "$KCTUI_TMP/unit.$n.build"
		unit_collect "$n" "[asan]" "$KCTUI_TMP/unit.$n.build-asan"
	done
	group_end unit
fi

# ---------------------------------------------------------------- kconfig
flavor_asan() { with_flavor "[asan]"; }

if want_group kconfig; then
	group_begin "kconfig (tests/kconfig/run.sh)"
	if [ -f tests/kconfig/run.sh ]; then
		run kconfig 1800 cat env KCTUI="$KCTUI" KCTUI_FLAVOR=normal bash tests/kconfig/run.sh
		run "kconfig[asan]" 3600 flavor_asan env KCTUI="$KCTUI_ASAN" KCTUI_FLAVOR=asan bash tests/kconfig/run.sh
	else
		note "SKIP kconfig: no tests/kconfig/run.sh"
		nskip=$((nskip + 1))
	fi
	group_end kconfig
fi

# ------------------------------------------------------------------- real
if want_group real; then
	group_begin "real (tests/real/*.sh, Debian linux-source-6.1 and 6.12)"
	# Serially: the tests write into the shared tree.
	for t in tests/real/*.sh; do
		case ${t##*/} in tree.sh|demo.sh) continue;; esac
		run "real/${t##*/}" 1800 cat env KCTUI="$KCTUI" KCTUI_FLAVOR=normal bash "$t"
	done
	for t in tests/real/*.sh; do
		case ${t##*/} in tree.sh|demo.sh) continue;; esac
		cases=$ASAN_REAL_CASES; [ "$cases" = all ] && cases=
		# The 6.12 tree under ASan: conf's comparisons on a subset
		# (the engine's 6.12 paths; CI's time), the rest once.
		case ${t##*/} in
		compare-6.12.sh) cases=${KCTUI_ASAN_612_CASES:-$ASAN_612_CASES} ;;
		*-6.12.sh) continue ;;
		esac
		run "real/${t##*/}[asan]" 3600 cat env KCTUI="$KCTUI_ASAN" KCTUI_FLAVOR=asan \
			KCTUI_REAL_CASES="$cases" bash "$t"
	done
	group_end real
fi

# -------------------------------------------------------------------- tui
if want_group tui; then
	group_begin "tui (tests/tui/run.sh, tmux)"
	if ! command -v tmux >/dev/null 2>&1; then
		fail tui "tmux not installed (make deps)" | tee -a "$LOG"
		nfail=$((nfail + 1)); failures+=(tui)
	else
		run tui 900 cat env KCTUI="$KCTUI" KCTUI_FLAVOR=normal bash tests/tui/run.sh
		run "tui[asan]" 1800 cat env KCTUI="$KCTUI_ASAN" KCTUI_FLAVOR=asan bash tests/tui/run.sh
	fi
	group_end tui
fi

# ------------------------------------------------------------------- fuzz
fuzz_available() {
	command -v "${CLANG:-clang}" >/dev/null 2>&1 || return 1
	printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
		> "$KCTUI_TMP/fz.c"
	"${CLANG:-clang}" -fsanitize=fuzzer,address,undefined "$KCTUI_TMP/fz.c" \
		-o "$KCTUI_TMP/fz" > /dev/null 2>&1
}

if want_group fuzz; then
	group_begin "fuzz (tests/fuzz/fuzz_*.c, $FUZZ_SMOKE_SECONDS s each)"
	shopt -s nullglob
	fuzzers=(tests/fuzz/fuzz_*.c)
	shopt -u nullglob
	if [ ${#fuzzers[@]} -eq 0 ]; then
		note "SKIP fuzz: no tests/fuzz/fuzz_*.c"
		nskip=$((nskip + 1))
	elif ! fuzz_available; then
		note "SKIP fuzz: clang with the libFuzzer runtime not found (make deps)"
		nskip=$((nskip + 1))
	else
		for f in "${fuzzers[@]}"; do
			n=$(basename "$f" .c)
			out=$KCTUI_TMP/fz.$$
			if ! make -s --no-print-directory "build-fuzz/$n" > "$out" 2>&1; then
				{ fail "fuzz/$n" "build failed"; indent < "$out"; } > "$out.r"
			else
				mkdir -p "$KCTUI_TMP/corpus-$n" build-fuzz/artifacts
				seed=(); [ -d "tests/fuzz/corpus/$n" ] && seed=("tests/fuzz/corpus/$n")
				if timeout --kill-after=10 $((FUZZ_SMOKE_SECONDS + 120)) "build-fuzz/$n" \
					-max_total_time="$FUZZ_SMOKE_SECONDS" \
					-artifact_prefix="build-fuzz/artifacts/$n-" \
					"$KCTUI_TMP/corpus-$n" "${seed[@]}" > "$out" 2>&1 < /dev/null; then
					pass "fuzz/$n" "($(grep -o 'Done [0-9]* runs' "$out" | tail -1))" > "$out.r"
				else
					{ fail "fuzz/$n" "crash or timeout (artifacts in build-fuzz/artifacts/)"; tail -40 "$out" | indent; } > "$out.r"
				fi
			fi
			cat "$out.r"; cat "$out.r" >> "$LOG"; count "$out.r"; rm -f "$out" "$out.r"
		done
	fi
	group_end fuzz
fi

# ------------------------------------------------------------------ total
note "== all groups done in $(elapsed_since "$run_start") s; log: $LOG"
if [ "$nfail" -gt 0 ]; then
	note "failed: ${failures[*]}"
fi
[ "$nskip" -gt 0 ] && note "$nskip skipped"
note "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
