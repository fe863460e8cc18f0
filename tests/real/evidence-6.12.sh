#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/real/evidence-6.12.sh - tests/real/evidence.sh on Debian's
# linux-source-6.12 with the bundle recorded from Debian's own 6.12 kernel
# (tests/fixtures/evidence/cloud-vm-6.12); results named real-6.12/...
KCTUI_KVER=6.12 exec bash "$(dirname "${BASH_SOURCE[0]}")/evidence.sh" "$@"
