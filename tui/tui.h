/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tui.h - the interactive front end's shared state. A stack of views
 * (menu, choice, search results, help), each a mode of the generic tree
 * widget; screen lines are formatted into attributed rows (render.c
 * style, headless) and only tui.c talks to curses.
 *
 * Adding a mode (the trim review, the export dialog): write a struct
 * tui_view_ops with its tree_ops, push it with tui_push(), and bind its
 * key in keys.c; a page of text is a pager (pager.c) with its own
 * struct pager_ops; the help screen takes more sections in help.c's
 * table.
 */
#ifndef KC_TUI_H
#define KC_TUI_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "keys.h"
#include "rows.h"
#include "theme.h"

struct session;
struct kconfig;
struct kc_menu;
struct kc_symbol;
struct kc_expr;
struct attrib;
struct worker;
struct worker_snapshot;
struct tree;
struct tui;
struct tui_view;
struct tui_trim;
struct tui_load;
struct review_req;
struct trim;
struct decisions;
struct kc_values;
struct verify;
struct tui_verify;

struct tui_view_ops {
	const char		*name;
	const struct tree_ops	*tree;
	/* The location shown on the title line (malloc'd). */
	char		*(*title)(struct tui *, struct tui_view *);
	/* An action on the current line: R_* flags, or -1 when the view
	 * leaves it to the defaults (navigation, back, quit...). */
	int		 (*action)(struct tui *, struct tui_view *,
			     enum tui_action);
	/* The info line about the current line. */
	void		 (*info)(struct tui *, struct tui_view *,
			     struct row *, int width);
	void		 (*free)(struct tui_view *);
	/* Column headings on the rule above the list, or NULL: a rule. */
	void		 (*heading)(struct tui *, struct tui_view *,
			     struct row *, int width);
};

struct tui_view {
	const struct tui_view_ops *ops;
	struct tui		*tui;
	struct tree		*tree;
	struct kc_menu		*menu;	/* menu views: what they show */
	void			*data;
	struct tui_view		*prev;
};

/* What the bottom line is asking for: a line of text, whether to quit,
 * whether to write a file (named in the question). */
enum tui_prompt { P_NONE, P_INPUT, P_CONFIRM_QUIT, P_CONFIRM };

struct tui {
	struct session		*session;
	struct kconfig		*k;
	const struct attrib	*a;
	struct worker		*w;
	struct worker_snapshot	*snap;
	uint64_t		 gen;		/* newest submitted */

	struct kc_menu	       **menus;		/* walk order */
	int			 nmenus;
	struct kc_menu	       **mhash;		/* open addressing */
	int			*mhidx;
	int			 mhsize;

	struct theme		 theme;
	bool			 ascii;		/* no UTF-8 line drawing */
	bool			 show_all, show_name, only_new;
	bool			 show_all_auto;	/* turned on by a jump */
	bool			 config_existed;	/* for NEW */
	bool			 dirty;
	char			*config_path;
	/* The configuration as the engine read it at start, written out:
	 * what an export's report tells the tree's update of the input
	 * (as olddefconfig) by, whatever was changed since. */
	char			*config_base;

	char			*msg;
	int			 msg_el;
	char			*last_search;	/* the last / regex, or NULL */
	bool			 esc;		/* first Esc of Esc Esc seen */

	enum tui_prompt		 prompt;
	char			*prompt_text;
	struct strbuf		*input;
	size_t			 input_cur;	/* the cursor, a byte offset */
	/* What Enter takes when nothing was typed (the last search), drawn
	 * dim; typing starts a new text instead. NULL: none. */
	char			*input_hint;
	void			(*input_done)(struct tui *, const char *,
				    void *);
	void			*input_arg;	/* input_done's */
	/* P_CONFIRM: the question, the file it names and what y does. */
	char			*confirm_text;
	char			*confirm_path;
	void			(*confirm_yes)(struct tui *, const char *);
	void			(*confirm_other)(struct tui *, const char *);
	/* The quit question was asked by C-c: C-c again quits without
	 * writing anything. */
	bool			 quit_sigint;

	struct tui_view		*view;
	int			 width, height;
	bool			 quit;

	FILE			*bench;		/* KCTUI_BENCH_LOG */

	/* Evidence and trim suggestions, loaded on a thread after the
	 * first paint (load.c); NULL until then, or without -e. */
	struct tui_load		*load;
	struct tui_trim		*trim;
	/* t was pressed while loading: the review opens when it is done
	 * (at this symbol, or NULL). */
	bool			 trim_wanted;
	const struct kc_symbol	*trim_wanted_sym;
	/* The consequence request the worker's hook reads (review.c). */
	pthread_mutex_t		 req_lock;
	/* Held by the worker while it computes the review's consequences,
	 * and by the interface while it replaces the review (a load, a
	 * save under another name: load_retrim): never freed under it. */
	pthread_mutex_t		 trim_lock;
	struct review_req	*req;
	/* The verify run started with v in the trim review (verify.c), or
	 * NULL. */
	struct tui_verify	*verify;
};

/* Set up over an open configuration (evidence a may be NULL). */
void		 tui_init(struct tui *, struct session *, struct kconfig *,
		     const struct attrib *);
void		 tui_done(struct tui *);
/* Values to draw: the snapshot (never recomputes on this thread). */
int		 tui_menu_index(struct tui *, const struct kc_menu *);
bool		 tui_menu_visible(struct tui *, struct kc_menu *);
int		 tui_sym_tri(struct tui *, const struct kc_symbol *);
const char	*tui_sym_str(struct tui *, const struct kc_symbol *);
bool		 tui_sym_new(struct tui *, const struct kc_symbol *);
void		 tui_message(struct tui *, int el, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
/* A value change was made to t->k: recompute in the background. */
void		 tui_changed(struct tui *);
/* Ask for a line of text on the bottom line; done gets it and arg. The
 * initial text is edited (readline's keys), never replaced by the first
 * key typed. */
void		 tui_ask(struct tui *, const char *prompt, const char *initial,
		     void (*done)(struct tui *, const char *, void *),
		     void *arg);
/* The same with an empty line and a hint (the last search): Enter on
 * the empty line takes the hint, Right or End brings it in to edit. */
void		 tui_ask_hint(struct tui *, const char *prompt,
		     const char *hint,
		     void (*done)(struct tui *, const char *, void *),
		     void *arg);
/* Ask y/n before writing path (absolute): y calls yes(t, path), a (when
 * other is not NULL) other(t, path), to ask for another name; any other
 * key writes nothing and says so. question names the file. */
void		 tui_confirm(struct tui *, const char *question,
		     const char *path, void (*yes)(struct tui *, const char *),
		     void (*other)(struct tui *, const char *));
/* Write the configuration to its file (and the trim decisions to
 * theirs): false, with the message said, when it failed. */
bool		 tui_save(struct tui *);

struct tui_view	*tui_push(struct tui *, const struct tui_view_ops *,
		     struct kc_menu *, void *data);
void		 tui_pop(struct tui *);
/* C-c: ask to quit (again: quit without writing). R_* flags. */
int		 tui_interrupt(struct tui *);
/* Handle one key (K_* or a code point): R_* flags. */
int		 tui_key(struct tui *, int key);
/* Recompute the values and their snapshot on this thread (no worker). */
void		 tui_recompute(struct tui *);
/* The configuration's path, absolute (malloc'd): what a prompt offers,
 * since a relative path typed is from where kctui was started. */
char		*tui_config_abs(struct tui *);
/* A path relative to the tree (where kctui runs) made absolute. */
char		*tui_path_abs(const char *);
/* Format the whole screen into rows[height] (headless). */
void		 tui_render(struct tui *, struct row *rows, int height,
		     int width);

/* menu.c */
extern const struct tui_view_ops tui_menu_ops;
struct tui_view	*menu_open(struct tui *, struct kc_menu *);
/* Open the menus leading to m and put the cursor on it. */
bool		 menu_jump(struct tui *, struct kc_menu *);
/* Why an entry is invisible: the false part of its conditions
 * (malloc'd), or NULL when it is visible. */
char		*menu_invisible_reason(struct tui *, struct kc_menu *);
/* "General setup > Timers subsystem" (malloc'd). */
char		*menu_location(struct tui *, struct kc_menu *);
/* The strongest evidence for a symbol, in words, or NULL (malloc'd). */
char		*menu_evidence_text(struct tui *, const struct kc_symbol *);
/* The evidence and trim marks of a symbol's line (two cells; none
 * without evidence). */
void		 menu_marks(struct tui *, const struct kc_symbol *, int el,
		     struct row *);
/* The mark of a suggested trim (one cell). */
const char	*menu_trim_mark(struct tui *);
/* The mark of a verdict (one cell). */
const char	*menu_verdict_mark(struct tui *, int verdict);

/* search.c */
/* Search names, prompts and help with a regex; pushes the results. */
int		 search_open(struct tui *, const char *regex, char **cause);

/* help.c */
/* The help screen's text for an entry (malloc'd, lines end in \n). */
char		*help_text(struct tui *, struct kc_menu *);
void		 help_open(struct tui *, struct kc_menu *);
/* The key list (F1; ? where there is no option help). */
void		 help_keys_open(struct tui *);

struct strbuf;
/* help.c: wrap text into lines of at most width cells (malloc'd). */
char		*help_wrap(const char *text, int width, int indent);
/* Each line of a text so (continuations indented). */
char		*help_wrap_lines(const char *text, int width);
/* A text in a pager (title, text malloc'd, taken over). */
void		 help_text_open(struct tui *, char *title, char *text);

/* plan.c: "how do I turn this on?" for a symbol (E). */
void		 plan_open(struct tui *, struct kc_symbol *);

/* pager.c: scrollable lines of text with a title (help, plan). */
struct pager_ops {
	/* Whether a line is drawn as a heading. */
	bool		 (*heading)(const char *line);
	/* An action other than scrolling (up, down): R_* flags, or -1 for
	 * the defaults. */
	int		 (*action)(struct tui *, struct tui_view *,
			     enum tui_action);
	/* The info line. */
	void		 (*info)(struct tui *, struct tui_view *,
			     struct row *, int width);
	/* Free the kind's data (NULL: not owned). */
	void		 (*free)(void *data);
};
/* Push a pager over text (lines end in \n) with its title; it owns both
 * (malloc'd) and data. */
struct tui_view	*pager_open(struct tui *, const struct pager_ops *,
		     struct kc_menu *, char *title, char *text, void *data);
/* The kind of a pager view (NULL: not a pager). */
const struct pager_ops *pager_kind(struct tui_view *);
/* Whether a view is the key list. */
bool		 help_is_keys(struct tui_view *);
/* The data given to pager_open(). */
void		*pager_data(struct tui_view *);

/* load.c */
/* Start loading the -e bundles and the trim suggestions on a thread. */
void		 load_start(struct tui *);
/* The fd that becomes readable when loading is done, or -1. */
int		 load_fd(struct tui *);
/* Take what was loaded (joins the thread): R_* flags. */
int		 load_finish(struct tui *);
/* Free what was loaded (after the worker stopped). */
void		 load_free(struct tui *);
/* The configuration being edited is another file now (l, save as):
 * the trim suggestions recomputed for it, on a thread, with its own
 * decisions file; the review is replaced when they are done. */
void		 load_retrim(struct tui *);
/* Whether evidence is still loading. */
bool		 load_busy(struct tui *);

/* review.c: the trim review (t) */
struct worker_snapshot;
int		 review_open(struct tui *);
/* At a candidate's line (sym NULL: where the cursor was). */
int		 review_open_at(struct tui *, const struct kc_symbol *);
int		 review_export(struct tui *);
int		 review_undo(struct tui *);
/* The worker's hook: consequences of the current request. */
void		*review_consequences(void *arg, struct kconfig *,
		     const struct kc_values *);
void		 review_consequences_free(void *);
/* A snapshot came back: take its consequences. */
void		 review_collect(struct tui *, struct worker_snapshot *);
/* A snapshot of the newest values came: accepted candidates that are on
 * again are no longer accepted (and it says so). */
void		 review_sync(struct tui *);
/* The values changed: recompute them with what every subsystem of the
 * review turns off now (review.c; tui_changed() calls it). */
void		 review_request(struct tui *);
/* Whether a symbol is a pending trim candidate (the main view's mark). */
bool		 review_is_candidate(struct tui *, const struct kc_symbol *);
const char	*review_mark(struct tui *, const struct kc_symbol *);
/* Free the review's state. */
void		 review_free(struct tui *);
/* Write the decisions made since the last save (with the configuration,
 * s): 0, or -1 with *cause. */
int		 review_save(struct tui *, char **cause);
/* How many decisions are unsaved; the decisions file (NULL: no review). */
size_t		 review_unsaved(struct tui *);
const char	*review_decisions_path(struct tui *);
/* The config being edited changed name (save as, load): the decisions
 * follow it to its own file. */
void		 review_follow_config(struct tui *, const char *config);
/* Hand the loaded suggestions to the review (it owns them from now). */
struct tui_trim	*review_new(struct tui *, struct kconfig *k, struct trim *,
		     struct decisions *, char *dpath, int policy, double ms);

/* Export the accepted candidates to out (absolute), the report to report
 * (NULL: none); -1 with *cause. */
int		 review_export_to(struct tui *, const char *out,
		     const char *report, size_t *naccepted, char **cause);
size_t		 review_naccepted(struct tui *);
/* Mark what a verified run put back as kept: how many. */
size_t		 review_keep_verified(struct tui *, const struct verify *);

/* verify.c: v in the trim review (docs/guide.md) */
/* Start verifying the accepted trims; while running, ask to cancel (v v
 * cancels). R_* flags. */
int		 verify_key(struct tui *);
/* Any other key disarms the cancel. */
void		 verify_other_key(struct tui *);
bool		 verify_running(struct tui *);
/* The job's fd, or -1. */
int		 verify_fd(struct tui *);
/* The fd is readable: take the events, and the end. R_* flags. */
int		 verify_ready(struct tui *);
/* The progress line (while running). */
void		 verify_row(struct tui *, struct row *, int width);
/* Cancel and wait for a run (on exit). */
void		 verify_stop(struct tui *);

/* tui.c */
/* A KCTUI_BENCH_LOG line: "what ms [detail]". */
void		 tui_bench(struct tui *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
int		 tui_main(struct session *, const char *theme);
#endif
