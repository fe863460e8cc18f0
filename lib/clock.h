/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.h - the one monotonic clock (timings for -v, benches, timeouts).
 */
#ifndef KC_CLOCK_H
#define KC_CLOCK_H

#include <stdint.h>

/* Seconds since an arbitrary fixed point, CLOCK_MONOTONIC. */
double		clock_now(void);
/* Nanoseconds, likewise. */
uint64_t	clock_ns(void);

#endif
