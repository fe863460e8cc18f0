/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decisions.h - the user's decisions about trim suggestions, kept next to
 * the configuration so that every later suggest, export and the TUI
 * honour them: a plain text file, one "CONFIG_X keep|trim  # reason" a
 * line, comments ("# ...") and blank lines allowed (docs/trim.md).
 */
#ifndef KC_DECISIONS_H
#define KC_DECISIONS_H

#include <stdbool.h>
#include <stddef.h>

enum decision { DECISION_NONE, DECISION_KEEP, DECISION_TRIM };

struct decisions;

/* The decisions belong to one configuration: the default file is named
 * after it, beside it (".config.kctui-decisions" for ".config"). */
#define DECISIONS_SUFFIX ".kctui-decisions"
/* The name of old, one per directory (every config there shared it):
 * read once, when a config's own file does not exist yet, and moved to
 * it (decisions_migrate). */
#define DECISIONS_DEFAULT ".kctui-decisions"

/* The default decisions file of a configuration (malloc'd). */
char		*decisions_path_for(const char *config_path);
/*
 * When path (a config's own decisions file, named by
 * decisions_path_for) does not exist and the directory's old
 * .kctui-decisions does, move the old one to path (a rename: nothing
 * lost, and no other config of the directory reads it again); *msg
 * says so (malloc'd), else NULL. 0, or -1 with *msg the reason.
 */
int		 decisions_migrate(const char *path, char **msg);

/*
 * Read a decisions file. A missing file is an empty set. NULL with *cause
 * when the file exists but can't be read. Bad lines are skipped; when
 * there were any, the result is still returned and *cause (if cause is
 * not NULL) is set to their warnings, one "file:line: text" a line.
 */
struct decisions *decisions_load(const char *path, char **cause);
/* An empty set (for a new file). */
struct decisions *decisions_new(void);
/* A symbol's decision (name without CONFIG_). */
enum decision	 decisions_get(const struct decisions *, const char *sym);
/* Its reason, or NULL. */
const char	*decisions_reason(const struct decisions *, const char *sym);
/* Record (or with DECISION_NONE, forget) a decision; reason may be NULL. */
void		 decisions_set(struct decisions *, const char *sym,
		     enum decision, const char *reason);
/* Save the decisions set since the load (comments of the file kept, in
 * place), atomically, merged under a lock with what other writers saved
 * meanwhile; nothing is written when nothing was decided. */
int		 decisions_save(struct decisions *, const char *path,
		     char **cause);
/*
 * Take in the decisions another writer saved in path since this set last
 * read or wrote it (a `kctui decide` beside the browser): each taken over
 * this set's, even over one set here and not saved (the later word
 * wins), and not saved again by this set. Their names in *syms (each
 * malloc'd, the array too; *n of them). 0, or -1 with *cause.
 */
int		 decisions_reread(struct decisions *, const char *path,
		     char ***syms, size_t *n, char **cause);
/* Remove path when it holds no line at all (a file the browser created,
 * emptied by undo), under the save's lock; 0 or -1 with *cause. */
int		 decisions_drop_if_empty(const char *path, char **cause);
/* Whether a reason may be recorded (one line: no control characters). */
bool		 decisions_reason_ok(const char *reason);
void		 decisions_free(struct decisions *);
/* waiting(arg, dir) is told when a save has waited a second for another
 * writer's lock on dir (a `decide` beside the browser, a second decide),
 * before it waits on: a run that seems to hang says why. */
void		 decisions_on_wait(struct decisions *,
		     void (*waiting)(void *, const char *), void *arg);

/* Count every decision as set since the load: the next save writes all
 * of them (to a file of another configuration). */
void		 decisions_touch_all(struct decisions *);
/* How many were set or forgotten since the load or the last save. */
size_t		 decisions_unsaved(const struct decisions *);
/* Every decision, in file order (for reports). */
size_t		 decisions_count(const struct decisions *);
const char	*decisions_at(const struct decisions *, size_t,
		     enum decision *, const char **reason);
/* "keep", "trim" or "none". */
const char	*decision_name(enum decision);
#endif
