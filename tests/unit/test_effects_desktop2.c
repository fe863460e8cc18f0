/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_effects_desktop2.c - test_effects_desktop.c's odd subsystems.
 */
#define EFFECTS_BUNDLE	"desktop-vm"
#define EFFECTS_CONFIG	"config.amd64_none_amd64"
#define EFFECTS_STEP	2
#define EFFECTS_FIRST	1
#define UNIT_PREFIX "unit/effects_desktop2/"
#include "test_effects.c"
