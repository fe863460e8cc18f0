#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/trim-6.12.sh - tests/real/trim.sh on Debian's linux-source-6.12 and
# linux-config-6.12 (the 6.12 semantics of kconfig-parser/version.h),
# with the bundle recorded from Debian's own 6.12 kernel (cloud-vm-6.12);
# results named real-6.12/...
KCTUI_KVER=6.12 exec bash "$(dirname "${BASH_SOURCE[0]}")/trim.sh" "$@"
