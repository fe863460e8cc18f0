#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/compare-6.12.sh - tests/real/compare.sh on Debian's
# linux-source-6.12 (Debian 13's kernel, with the Kconfig semantics of
# 6.12: see kconfig-parser/version.h): the same cases, named
# real-6.12/CASE, against that tree's own conf.  Same environment as
# compare.sh (KCTUI, KCTUI_REAL_CASES, KCTUI_FLAVOR, KCTUI_CACHE, ...).
KCTUI_KVER=6.12 exec bash "$(dirname "${BASH_SOURCE[0]}")/compare.sh" "$@"
