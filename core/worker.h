/* SPDX-License-Identifier: GPL-2.0 */
/*
 * worker.h - the background worker: every change the user makes is
 * recomputed on a thread over the worker's own struct kconfig (parsed
 * from the same tree, so symbol indexes match), and the result comes back
 * as a snapshot of everything the interface draws. A newer change
 * supersedes older work (generation numbers). The caller polls
 * worker_fd() and calls worker_collect(); nothing here touches curses.
 */
#ifndef KC_WORKER_H
#define KC_WORKER_H

#include <stdbool.h>
#include <stdint.h>

struct kconfig;
struct kc_values;
struct attrib;

/* Per-symbol flags in a snapshot. */
#define WS_USER		0x01	/* has a user value */
#define WS_SET_N	0x02	/* n is settable now */
#define WS_SET_M	0x04
#define WS_SET_Y	0x08
#define WS_WRITTEN	0x10	/* goes to .config */

/* No evidence loaded for this symbol's verdict. */
#define WS_NO_VERDICT	0xff

/* Values of one computation, indexed by kc_sym_index() and by menu walk
 * order (kconfig_root() then kc_menu_walk()). */
struct worker_snapshot {
	uint64_t	  gen;
	int		  nsyms, nmenus;
	uint8_t		 *tri;		/* current value (bool/tristate) */
	uint8_t		 *vis;		/* prompt visibility */
	uint8_t		 *rev;		/* value of the selects */
	uint8_t		 *flags;	/* WS_* */
	uint8_t		 *verdict;	/* enum verdict or WS_NO_VERDICT */
	int		 *choice_sel;	/* choices: selected value's index */
	char		**str;		/* int/hex/string values */
	uint8_t		 *menu_vis;	/* kc_menu_is_visible() */
	/* What the consequences hook returned (freed with its free). */
	void		 *consequences;
	void		(*consequences_free)(void *);
	double		  compute_ms;	/* time the computation took */
};

/* Extension points. open makes the worker's own configuration (on the
 * worker thread; NULL on failure, with *cause). consequences, if set, is
 * called after each recomputation with the new configuration and the
 * values before the change (NULL for the first job). */
struct worker_hooks {
	struct kconfig	*(*open)(void *arg, char **cause);
	void		*(*consequences)(void *arg, struct kconfig *,
			     const struct kc_values *before);
	void		 (*consequences_free)(void *);
	void		*arg;
};

struct worker;

/* Everything the interface reads, from k as it is now (on the calling
 * thread: the first paint, and the worker itself). a may be NULL. */
struct worker_snapshot *worker_snapshot_compute(struct kconfig *k,
		     const struct attrib *a);
void		 worker_snapshot_free(struct worker_snapshot *);

/* Start the thread. NULL with *cause if it cannot start. */
struct worker	*worker_start(const struct worker_hooks *,
		     const struct attrib *, char **cause);
/* Evidence that arrived after the start (loaded in the background):
 * verdicts from the next computation on. */
void		 worker_set_attrib(struct worker *, const struct attrib *);
/* Readable when a result is ready (poll it). */
int		 worker_fd(const struct worker *);
/* Queue a recomputation of these values (taken over); its generation.
 * A job still queued is dropped: only the newest matters. */
uint64_t	 worker_submit(struct worker *, struct kc_values *);
/* The newest finished snapshot, or NULL; clears the fd. */
struct worker_snapshot *worker_collect(struct worker *);
/* Whether work submitted is not yet collected. */
bool		 worker_busy(struct worker *);
/* Jobs dropped as stale (superseded before or after computing). */
uint64_t	 worker_dropped(struct worker *);
/* Why the worker failed (its open hook), or NULL; malloc'd. */
char		*worker_error(struct worker *);
/* Stop and join the thread, free everything. */
void		 worker_stop(struct worker *);
#endif
