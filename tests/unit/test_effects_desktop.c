/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_effects_desktop.c - test_effects.c on the desktop-vm bundle with
 * Debian's amd64 config ("PCI sound devices" among its subsystems: 82
 * options, TOUCHSCREEN_WM97XX dragged along in Input): its even
 * subsystems (test_effects_desktop2.c the odd ones), each program within
 * the unit group's time limit under ASan.
 */
#define EFFECTS_BUNDLE	"desktop-vm"
#define EFFECTS_CONFIG	"config.amd64_none_amd64"
#define EFFECTS_STEP	2
#define EFFECTS_FIRST	0
#define UNIT_PREFIX "unit/effects_desktop/"
#include "test_effects.c"
