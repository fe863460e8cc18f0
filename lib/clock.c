/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.c - the monotonic clock (see clock.h).
 */
#include <time.h>

#include "clock.h"

/* CLOCK_MONOTONIC in nanoseconds: immune to the wall clock being set. */
uint64_t
clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The same in seconds, as a double for printing and subtracting. */
double
clock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
