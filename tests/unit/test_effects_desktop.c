/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_effects_desktop.c - test_effects.c on the desktop-vm bundle with
 * Debian's amd64 config (245 subsystems, "PCI sound devices" among them:
 * 82 options, TOUCHSCREEN_WM97XX dragged along in Input).
 */
#define EFFECTS_BUNDLE	"desktop-vm"
#define EFFECTS_CONFIG	"config.amd64_none_amd64"
#define UNIT_PREFIX "unit/effects_desktop/"
#include "test_effects.c"
