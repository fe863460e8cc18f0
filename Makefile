# SPDX-License-Identifier: GPL-2.0
#
# kctui - build, test and benchmark.  GNU make.
#
#   make             ./kctui                          (objects in build/)
#   make asan        build-asan/kctui                 (ASan + UBSan)
#   make fuzz        build-fuzz/fuzz_*                (clang libFuzzer)
#   make fuzz-run    run every fuzzer FUZZ_SECONDS (default 10)
#   make check       deps, kctui, asan, then tests/run.sh
#   make bench       tests/bench/run.sh (kctui vs the kernel's conf)
#   make demo        the TUI on the real tree with evidence (on a terminal),
#                    else olddefconfig + savedefconfig of Debian's amd64 config
#   make deps        apt-get install the Debian packages (see README.md)
#   make clean

ifeq ($(origin CC),default)
CC       := gcc
endif
CLANG    ?= clang
PKG_CONFIG ?= pkg-config

STD_FLAGS  := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror
CFLAGS     ?= -O2 -g
# Sanitizer builds show warnings but do not fail on them: GCC's UBSan
# instrumentation causes false positives (e.g. -Wformat-truncation "null
# format string" on vsnprintf(NULL, 0, ...)).  The normal build, which `make
# check` also builds, keeps -Werror.
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -Wno-error
FUZZ_FLAGS := -O1 -g -fno-omit-frame-pointer -Wno-error
FUZZ_SECONDS ?= 10
INCLUDES   := -Ilib -Ikconfig-parser -Icore -Itui -Icli
DEPFLAGS    = -MMD -MP

# The libraries kctui is built on (README.md "Dependencies" says why each):
# all required, all installed by `make deps`.  Goals that only install or
# clean may run without them; building anything else stops with a message
# that names what is missing.  --as-needed keeps unused ones out of binaries.
PKGS := ncursesw libtraceevent libtracefs libtracecmd yaml-0.1 libpcre2-8 liblzma zlib libelf
PKGS_FOUND := $(foreach p,$(PKGS),$(if $(shell $(PKG_CONFIG) --exists $(p) 2>/dev/null && echo y),$(p)))
PKGS_MISSING := $(filter-out $(PKGS_FOUND),$(PKGS))
NO_PKG_GOALS := deps deps-ensure clean help check bench demo
ifneq ($(PKGS_MISSING),)
ifneq ($(filter-out $(NO_PKG_GOALS),$(or $(MAKECMDGOALS),all)),)
$(error libraries not found by $(PKG_CONFIG): $(PKGS_MISSING); run `make deps` (as root) first)
endif
endif
ifneq ($(PKGS_FOUND),)
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS_FOUND))
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS_FOUND))
endif
LDFLAGS ?=
LDLIBS  := -Wl,--as-needed $(PKG_LIBS) -pthread

# The engine (kconfig-parser/) and the plumbing under it (lib/) use libc and
# pthread only: the optional libraries' flags go to core/, tui/, cli/ and
# test programs.
XCFLAGS = $(PKG_CFLAGS)
$(foreach d,build build-asan build-fuzz,$(eval $(d)/kconfig-parser/%.o: XCFLAGS :=))
$(foreach d,build build-asan build-fuzz,$(eval $(d)/lib/%.o: XCFLAGS :=))

# Quiet command lines unless V=1.
ifeq ($(V),1)
Q :=
say = @:
else
Q := @
say = @printf '  %-6s %s\n'
endif

LIB_SRCS  := $(sort $(wildcard lib/*.c))
KP_SRCS   := $(sort $(wildcard kconfig-parser/*.c))
CORE_SRCS := $(sort $(wildcard core/*.c core/*/*.c))
TUI_SRCS  := $(sort $(wildcard tui/*.c))
CLI_SRCS  := $(sort $(wildcard cli/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
UNITS     := $(patsubst tests/unit/%.c,%,$(UNIT_SRCS))
FUZZERS   := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(FUZZ_SRCS))

# $(call flavor,DIR) -> the library archives of a build directory
# (libkccore.a only when core/ has sources); lib/'s plumbing comes last.
libs_of = $(if $(CORE_SRCS),$(1)/libkccore.a) $(1)/libkconfig.a $(1)/libkcutil.a

.PHONY: all asan fuzz fuzz-run check unit-bins bench demo deps deps-ensure \
	clean help
.DEFAULT_GOAL := all

all: kctui

help:
	@sed -n '3,15p' Makefile | sed 's/^# \{0,1\}//'

# Objects depend on the libraries' flags: when pkg-config's answer changes
# (a library upgraded or moved), everything is rebuilt.
FLAGS_STAMP := build/.pkg-flags
FLAGS_NOW   := $(PKG_CFLAGS) | $(PKG_LIBS)
ifneq ($(FLAGS_NOW),$(shell cat $(FLAGS_STAMP) 2>/dev/null))
$(shell mkdir -p build && printf '%s' '$(FLAGS_NOW)' > $(FLAGS_STAMP))
endif

# ---------------------------------------------------------------- flavors
# $(call flavor_rules,DIR,CFLAGS,BINARY)
define flavor_rules
$(1)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $$(@D)
	$$(say) CC $$@
	$$(Q)$$(CC) $$(STD_FLAGS) $(2) $$(INCLUDES) $$(XCFLAGS) $$(DEPFLAGS) -c -o $$@ $$<

$(1)/libkconfig.a: $(patsubst %.c,$(1)/%.o,$(KP_SRCS))
	@mkdir -p $$(@D)
	$$(say) AR $$@
	$$(Q)rm -f $$@ && $$(AR) rcs $$@ $$^

$(1)/libkcutil.a: $(patsubst %.c,$(1)/%.o,$(LIB_SRCS))
	@mkdir -p $$(@D)
	$$(say) AR $$@
	$$(Q)rm -f $$@ && $$(AR) rcs $$@ $$^

$(1)/libkccore.a: $(patsubst %.c,$(1)/%.o,$(CORE_SRCS)) $(1)/core/verify/verify-init.o
	@mkdir -p $$(@D)
	$$(say) AR $$@
	$$(Q)rm -f $$@ && $$(AR) rcs $$@ $$^

# The binary: the command line (cli/) over the browser (tui/).
$(3): $(patsubst %.c,$(1)/%.o,$(CLI_SRCS) $(TUI_SRCS)) $(call libs_of,$(1))
	@mkdir -p $$(@D)
	$$(say) LINK $$@
	$$(Q)$$(CC) $(2) $$(LDFLAGS) -o $$@ $(patsubst %.c,$(1)/%.o,$(CLI_SRCS) $(TUI_SRCS)) $(call libs_of,$(1)) $$(LDLIBS)

$(1)/unit/%: tests/unit/%.c $(call libs_of,$(1))
	@mkdir -p $$(@D)
	$$(say) CCLD $$@
	$$(Q)$$(CC) $$(STD_FLAGS) $(2) $$(INCLUDES) -Itests/unit $$(PKG_CFLAGS) $$(DEPFLAGS) $$(LDFLAGS) -o $$@ $$< $(call libs_of,$(1)) $$(LDLIBS)

-include $(patsubst %.c,$(1)/%.d,$(LIB_SRCS) $(KP_SRCS) $(CORE_SRCS) $(CLI_SRCS) $(TUI_SRCS)) $(patsubst %,$(1)/unit/%.d,$(UNITS))
endef

# $(call init_script_rules,DIR,COMPILE): the guest's /init
# (core/verify/verify-init.sh) as the C string verify_init_sh, in DIR's
# libkccore.a.  Backslashes, quotes and '?' (no trigraphs under -std=c11)
# are escaped; each line becomes "LINE\n".
define init_script_rules
$(1)/core/verify/verify-init.c: core/verify/verify-init.sh
	@mkdir -p $$(@D)
	$$(say) GEN $$@
	$$(Q){ echo '/* Generated from core/verify/verify-init.sh by the Makefile. */'; \
	  echo 'const char verify_init_sh[];'; \
	  echo 'const char verify_init_sh[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' \
	    -e 's/^/"/' -e 's/$$$$/\\n"/' $$<; \
	  echo ';'; } > $$@.tmp && mv $$@.tmp $$@

$(1)/core/verify/verify-init.o: $(1)/core/verify/verify-init.c
	$$(say) CC $$@
	$$(Q)$(2) -c -o $$@ $$<
endef

$(eval $(call init_script_rules,build,$$(CC) $$(STD_FLAGS) $$(CFLAGS)))
$(eval $(call init_script_rules,build-asan,$$(CC) $$(STD_FLAGS) $$(ASAN_FLAGS)))
$(eval $(call init_script_rules,build-fuzz,$$(CLANG) $$(STD_FLAGS) $$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,$$(FUZZ_SAN)))

$(eval $(call flavor_rules,build,$(CFLAGS),kctui))
$(eval $(call flavor_rules,build-asan,$(ASAN_FLAGS),build-asan/kctui))

asan: build-asan/kctui

# Unit test programs of both flavors (tests/run.sh builds them one by one).
unit-bins: $(patsubst %,build/unit/%,$(UNITS)) $(patsubst %,build-asan/unit/%,$(UNITS))

# ------------------------------------------------------------------- fuzz
# Every tests/fuzz/fuzz_*.c becomes build-fuzz/fuzz_*, linked with the
# kconfig-parser objects built by clang with -fsanitize=fuzzer-no-link.
FUZZ_KP_OBJS := $(patsubst %.c,build-fuzz/%.o,$(LIB_SRCS) $(KP_SRCS) $(CORE_SRCS)) \
	$(if $(CORE_SRCS),build-fuzz/core/verify/verify-init.o)
FUZZ_SAN := address,undefined
# Objects, not intermediates: make would delete them after a fresh build
# and build them again for the next fuzzer.
.SECONDARY: $(FUZZ_KP_OBJS)

build-fuzz/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(say) CLANG $@
	$(Q)$(CLANG) $(STD_FLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) $(INCLUDES) $(XCFLAGS) $(DEPFLAGS) -c -o $@ $<

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_KP_OBJS)
	@mkdir -p $(@D)
	$(say) CLANG $@
	$(Q)$(CLANG) $(STD_FLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) $(INCLUDES) -Itests/fuzz $(PKG_CFLAGS) $(DEPFLAGS) -o $@ $< $(FUZZ_KP_OBJS) $(LDLIBS)

-include $(FUZZ_KP_OBJS:.o=.d) $(FUZZERS:=.d)

fuzz: $(FUZZERS)
ifeq ($(FUZZERS),)
	@echo "fuzz: no tests/fuzz/fuzz_*.c yet, nothing to build"
endif

fuzz-run: fuzz
	@set -e; for f in $(FUZZERS); do \
		n=$${f#build-fuzz/}; \
		mkdir -p build-fuzz/corpus/$$n build-fuzz/artifacts; \
		seed=; [ -d tests/fuzz/corpus/$$n ] && seed=tests/fuzz/corpus/$$n; \
		echo "fuzz-run: $$n for $(FUZZ_SECONDS) s"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-artifact_prefix=build-fuzz/artifacts/$$n- \
			build-fuzz/corpus/$$n $$seed; \
	done

# ------------------------------------------------------------- test, demo
# check and demo do all set-up themselves: packages (deps-ensure), the
# binaries, then the scripts.  Recursive make so that libraries installed by
# deps-ensure are seen by pkg-config.
check:
	@$(MAKE) --no-print-directory deps-ensure
	@$(MAKE) --no-print-directory all asan
	KCTUI=./kctui KCTUI_ASAN=build-asan/kctui tests/run.sh

build/bench: tests/bench/bench.c
	@mkdir -p $(@D)
	$(say) CCLD $@
	$(Q)$(CC) $(STD_FLAGS) $(CFLAGS) $(DEPFLAGS) -o $@ $<
-include build/bench.d

build/bench_evidence: tests/bench/evidence.c $(call libs_of,build)
	@mkdir -p $(@D)
	$(say) CCLD $@
	$(Q)$(CC) $(STD_FLAGS) $(CFLAGS) $(INCLUDES) $(PKG_CFLAGS) -o $@ $< $(call libs_of,build) $(LDLIBS)

bench:
	@$(MAKE) --no-print-directory deps-ensure
	@$(MAKE) --no-print-directory all build/bench build/bench_evidence
	KCTUI=./kctui BENCH=build/bench BENCH_EVIDENCE=build/bench_evidence tests/bench/run.sh

demo:
	@$(MAKE) --no-print-directory deps-ensure
	@$(MAKE) --no-print-directory all
	@KCTUI=./kctui tests/real/demo.sh

# ------------------------------------------------------------------- deps
# Debian packages; see README.md "Dependencies" for why each is needed.
DEB_PACKAGES := gcc make libc6-dev xz-utils pkg-config \
	linux-source-6.1 linux-config-6.1 linux-source-6.12 linux-config-6.12 \
	flex bison bc \
	libncurses-dev libtraceevent-dev libtracefs-dev libtracecmd-dev \
	libyaml-dev libpcre2-dev liblzma-dev zlib1g-dev libelf-dev \
	tmux clang libclang-rt-14-dev \
	qemu-system-x86 busybox-static kmod e2fsprogs dosfstools cpio strace ccache distcc \
	mmdebstrap genext2fs

# Installed packages have status "ii" (dpkg-query prints nothing useful for
# unknown ones).  Prints the missing ones.
MISSING_CMD = for p in $(DEB_PACKAGES); do \
	  s=$$(dpkg-query -W -f='$${db:Status-Abbrev}' "$$p" 2>/dev/null || true); \
	  case "$$s" in ii*) ;; *) printf '%s ' "$$p";; esac; \
	done

deps:
	@set -e; \
	if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then \
		echo "make deps: needs a Debian system (dpkg-query, apt-get); install by hand: $(DEB_PACKAGES)" >&2; \
		exit 1; \
	fi; \
	missing=$$($(MISSING_CMD)); \
	if [ -z "$$missing" ]; then echo "make deps: all packages installed"; exit 0; fi; \
	echo "make deps: installing $$missing"; \
	if [ "$$(id -u)" = 0 ]; then sudo=; \
	elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; \
	else echo "make deps: not root and no sudo; as root run: apt-get update && apt-get install -y $$missing" >&2; exit 1; fi; \
	export DEBIAN_FRONTEND=noninteractive; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing </dev/null

# Cheap check, then `make deps` only if something is missing.
deps-ensure:
	@missing=$$($(MISSING_CMD)); \
	if [ -n "$$missing" ]; then \
		echo "missing packages: $$missing-> make deps"; \
		$(MAKE) --no-print-directory deps; \
	fi

clean:
	rm -rf build build-asan build-fuzz kctui
