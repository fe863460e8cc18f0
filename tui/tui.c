/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tui.c - the interactive front end: state, the view stack, keys, screen
 * layout (formatted headless into rows), and the curses main loop, which
 * polls the terminal and the background worker's pipe. Curses is called
 * from this thread only; the worker never touches it.
 */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curses.h>

#include "../core/evidence/attrib.h"
#include "../core/session.h"
#include "../core/worker.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/clock.h"
#include "../lib/util.h"
#include "tree.h"
#include "tui.h"

#define TUI_MIN_WIDTH	40
#define TUI_MIN_HEIGHT	10
/* Lines around the list: title, location, legend, rule / rule, info,
 * status. */
#define TUI_TOP		4
#define TUI_BOTTOM	3

/* Pointer hash of the menu entries, for the snapshot's walk indexes. */
static unsigned
tui_mhash_slot(const struct tui *t, const struct kc_menu *m)
{
	uintptr_t p = (uintptr_t)m;

	p ^= p >> 17;
	p *= 0x9e3779b97f4a7c15ull;
	return (unsigned)(p >> 20) & (unsigned)(t->mhsize - 1);
}

void
tui_init(struct tui *t, struct session *s, struct kconfig *k,
    const struct attrib *a)
{
	struct kc_menu	*m;
	int		 i;
	unsigned	 h;

	memset(t, 0, sizeof *t);
	t->session = s;
	t->k = k;
	t->a = a;
	for (m = kconfig_root(k); m != NULL; m = kc_menu_walk(m))
		t->nmenus++;
	t->menus = xcalloc((size_t)t->nmenus, sizeof *t->menus);
	for (t->mhsize = 64; t->mhsize < t->nmenus * 2; t->mhsize *= 2)
		;
	t->mhash = xcalloc((size_t)t->mhsize, sizeof *t->mhash);
	t->mhidx = xcalloc((size_t)t->mhsize, sizeof *t->mhidx);
	for (i = 0, m = kconfig_root(k); m != NULL; m = kc_menu_walk(m), i++) {
		t->menus[i] = m;
		for (h = tui_mhash_slot(t, m); t->mhash[h] != NULL;
		    h = (h + 1) & (unsigned)(t->mhsize - 1))
			;
		t->mhash[h] = m;
		t->mhidx[h] = i;
	}
	t->snap = worker_snapshot_compute(k, a);
	pthread_mutex_init(&t->req_lock, NULL);
	theme_builtin(&t->theme, "classic");
	t->width = 80;
	t->height = 24;
}

void
tui_done(struct tui *t)
{
	while (t->view != NULL)
		tui_pop(t);
	/* After the worker stopped: its hook reads the trim. */
	load_free(t);
	worker_snapshot_free(t->snap);
	free(t->menus);
	free(t->mhash);
	free(t->mhidx);
	free(t->msg);
	free(t->prompt_text);
	if (t->input != NULL) {
		strbuf_free(t->input);
		free(t->input);
	}
	free(t->config_path);
	free(t->config_base);
	free(t->last_search);
	theme_free(&t->theme);
	pthread_mutex_destroy(&t->req_lock);
}

int
tui_menu_index(struct tui *t, const struct kc_menu *m)
{
	unsigned h;

	for (h = tui_mhash_slot(t, m); t->mhash[h] != NULL;
	    h = (h + 1) & (unsigned)(t->mhsize - 1)) {
		if (t->mhash[h] == m)
			return t->mhidx[h];
	}
	return -1;
}

bool
tui_menu_visible(struct tui *t, struct kc_menu *m)
{
	int i = tui_menu_index(t, m);

	return i >= 0 && i < t->snap->nmenus && t->snap->menu_vis[i];
}

int
tui_sym_tri(struct tui *t, const struct kc_symbol *s)
{
	int i = kc_sym_index(s);

	return i >= 0 ? t->snap->tri[i] : 0;
}

const char *
tui_sym_str(struct tui *t, const struct kc_symbol *s)
{
	int i = kc_sym_index(s);

	return i >= 0 && t->snap->str[i] != NULL ? t->snap->str[i] : "";
}

bool
tui_sym_new(struct tui *t, const struct kc_symbol *s)
{
	int i = kc_sym_index(s);

	if (!t->config_existed || i < 0 || kc_sym_name(s) == NULL)
		return false;
	return !(t->snap->flags[i] & WS_USER) && t->snap->vis[i] > 0 &&
	    t->snap->vis[i] > t->snap->rev[i];
}

void
tui_message(struct tui *t, int el, const char *fmt, ...)
{
	va_list ap;

	free(t->msg);
	va_start(ap, fmt);
	t->msg = xvasprintf(fmt, ap);
	va_end(ap);
	t->msg_el = el;
}

/* Recompute the values and their snapshot on this thread (no worker). */
static void
tui_recompute(struct tui *t)
{
	kconfig_recalc(t->k);
	worker_snapshot_free(t->snap);
	t->snap = worker_snapshot_compute(t->k, t->a);
	t->snap->gen = t->gen;
	review_sync(t);
}

void
tui_changed(struct tui *t)
{
	t->dirty = true;
	if (t->w != NULL) {
		t->gen = worker_submit(t->w, kconfig_values_save(t->k));
		return;
	}
	/* No worker (it failed to start): compute here. */
	tui_recompute(t);
}

void
tui_ask(struct tui *t, const char *prompt, const char *initial,
    void (*done)(struct tui *, const char *, void *), void *arg)
{
	free(t->prompt_text);
	t->prompt_text = xstrdup(prompt);
	if (t->input == NULL) {
		t->input = xmalloc(sizeof *t->input);
		strbuf_init(t->input);
	}
	strbuf_reset(t->input);
	if (initial != NULL)
		strbuf_adds(t->input, initial);
	/* An offered text (the last search, a default path) is replaced
	 * by what is typed, kept by Enter, edited after Backspace. */
	t->input_fresh = initial != NULL && *initial != '\0';
	t->input_done = done;
	t->input_arg = arg;
	t->prompt = P_INPUT;
}

struct tui_view *
tui_push(struct tui *t, const struct tui_view_ops *ops, struct kc_menu *m,
    void *data)
{
	struct tui_view *v = xcalloc(1, sizeof *v);

	v->ops = ops;
	v->tui = t;
	v->menu = m;
	v->data = data;
	v->tree = tree_create(ops->tree, v);
	tree_set_height(v->tree, t->height - TUI_TOP - TUI_BOTTOM);
	tree_build(v->tree);
	v->prev = t->view;
	t->view = v;
	return v;
}

void
tui_pop(struct tui *t)
{
	struct tui_view *v = t->view;

	if (v == NULL)
		return;
	t->view = v->prev;
	/* The view's free may read its tree (where the cursor was). */
	if (v->ops->free != NULL)
		v->ops->free(v);
	tree_free(v->tree);
	free(v);
	/* Show-all that a jump turned on goes at the main menu. */
	if (t->show_all_auto && t->view != NULL && t->view->prev == NULL) {
		t->show_all = t->show_all_auto = false;
		tui_message(t, EL_STATUS, "show-all off again");
	}
	/* What is below may be stale (values changed meanwhile). */
	if (t->view != NULL) {
		tree_set_height(t->view->tree, t->height - TUI_TOP -
		    TUI_BOTTOM);
		tree_build(t->view->tree);
	}
}

/* Write the configuration. */
static bool
tui_save(struct tui *t)
{
	char *cause = NULL;

	if (kconfig_write(t->k, t->config_path, &cause) != 0) {
		tui_message(t, EL_ERROR, "%s", cause);
		free(cause);
		return false;
	}
	t->dirty = false;
	tui_message(t, EL_STATUS, "Configuration written to %s",
	    t->config_path);
	return true;
}

/* The configuration's path, absolute: the tree's directory (where
 * kctui runs after -C) before a relative one. */
char *
tui_config_abs(struct tui *t)
{
	char *cwd, *abs;

	if (*t->config_path == '/' || (cwd = getcwd(NULL, 0)) == NULL)
		return xstrdup(t->config_path);
	abs = xasprintf("%s/%s", cwd, t->config_path);
	free(cwd);
	return abs;
}

/* The path typed for L: read that configuration (a relative one from
 * where kctui was started, as --config). */
static void
tui_load_done(struct tui *t, const char *path, void *arg)
{
	char	*cause = NULL, *abs;
	int	 rc;

	(void)arg;
	if (path == NULL || *path == '\0')
		return;
	abs = session_path(t->session, path);
	rc = kconfig_read(t->k, abs, &cause);
	free(abs);
	if (rc != 0) {
		tui_message(t, EL_ERROR, "%s", rc > 0 ? "no such file" : cause);
		free(cause);
		return;
	}
	tui_changed(t);
	tui_message(t, EL_STATUS, "Configuration loaded from %s", path);
}

/* The regex typed for /: push its results. */
static void
tui_search_done(struct tui *t, const char *re, void *arg)
{
	char *cause = NULL;

	(void)arg;
	if (re == NULL || *re == '\0')
		return;
	/* / again offers it: Enter goes back to these results. */
	free(t->last_search);
	t->last_search = xstrdup(re);
	if (search_open(t, re, &cause) != 0) {
		tui_message(t, EL_ERROR, "%s", cause);
		free(cause);
	}
}

/* A key while the bottom line asks for text. */
static int
tui_input_key(struct tui *t, int key)
{
	void	(*done)(struct tui *, const char *, void *) = t->input_done;
	char	*text, b[4];

	switch (key) {
	case K_ENTER:
		t->prompt = P_NONE;
		text = xstrdup(t->input->s != NULL ? t->input->s : "");
		done(t, text, t->input_arg);
		free(text);
		return R_ALL;
	case K_ESC:
		t->prompt = P_NONE;
		return R_ALL;
	case K_BACKSPACE:
	case K_DEL:
		t->input_fresh = false;
		/* Drop one UTF-8 character. */
		while (t->input->len > 0) {
			unsigned char c = (unsigned char)
			    t->input->s[--t->input->len];

			if ((c & 0xc0) != 0x80)
				break;
		}
		if (t->input->s != NULL)
			t->input->s[t->input->len] = '\0';
		return R_LINES;
	case 'U' & 0x1f:
		t->input_fresh = false;
		strbuf_reset(t->input);
		return R_LINES;
	}
	if (key >= 0x20 && key < 0x110000 && key != 0x7f) {
		if (t->input_fresh)
			strbuf_reset(t->input);
		t->input_fresh = false;
		strbuf_add(t->input, b, (size_t)utf8_encode((uint32_t)key, b));
		return R_LINES;
	}
	return R_NONE;
}

/* The quit question. */
static int
tui_confirm_key(struct tui *t, int key)
{
	t->prompt = P_NONE;
	if (key == 'y' || key == 'Y' || key == K_ENTER) {
		if (tui_save(t))
			t->quit = true;
		return t->quit ? R_QUIT : R_ALL;
	}
	if (key == 'n' || key == 'N') {
		t->quit = true;
		return R_QUIT;
	}
	tui_message(t, EL_STATUS, "Not leaving");
	return R_ALL;
}

/* A key bound to nothing: an unbound letter jumps to the next line
 * starting with it (mconf's hotkeys); else the message says it is no
 * key. */
static int
tui_unbound_key(struct tui *t, struct tui_view *v, int key)
{
	char buf[8];

	if (key < 0x80 && key > 0x20 && tree_hotkey(v->tree, key))
		return R_LINES;
	if (key >= 0x110000)
		return R_NONE;
	if (key >= 0x80) {
		buf[utf8_encode((uint32_t)key, buf)] = '\0';
		tui_message(t, EL_STATUS, "%s: not a key (F1 lists the keys)",
		    buf);
	} else if (key > 0x20)
		tui_message(t, EL_STATUS, "%c: no key, nor a line starting "
		    "with it (F1 lists the keys)", key);
	else
		tui_message(t, EL_STATUS, "%s: not a key (F1 lists the keys)",
		    keys_name(key, buf));
	return R_ALL;
}

/* Leave, asking first if something would change. */
static int
tui_quit(struct tui *t)
{
	if (t->dirty || kconfig_changed(t->k)) {
		t->prompt = P_CONFIRM_QUIT;
		return R_ALL;
	}
	t->quit = true;
	return R_QUIT;
}

int
tui_key(struct tui *t, int key)
{
	struct tui_view		*v = t->view;
	enum tui_action		 act;
	char			*def;
	int			 r, h;

	if (key == K_RESIZE)
		return R_ALL;
	if (t->prompt == P_INPUT)
		return tui_input_key(t, key);
	if (t->prompt == P_CONFIRM_QUIT)
		return tui_confirm_key(t, key);
	if (key != K_ESC)
		t->esc = false;
	act = keys_action(key);
	if (act != A_VERIFY)
		verify_other_key(t);
	if (act == A_BACK && key == K_ESC && v->prev == NULL) {
		/* One Esc closes a view (ESCDELAY is short, as mconf's);
		 * at the main menu, mconf's Esc Esc leaves: the first one
		 * only arms. */
		if (!t->esc) {
			t->esc = true;
			return R_ALL;
		}
		t->esc = false;
	}
	free(t->msg);
	t->msg = NULL;
	if (act == A_NONE)
		return tui_unbound_key(t, v, key);
	if (act == A_QUIT_ALL)
		return tui_quit(t);
	if (act == A_KEYS) {
		/* F1 anywhere: the key list, or closes it. */
		if (help_is_keys(v))
			tui_pop(t);
		else
			help_keys_open(t);
		return R_ALL;
	}
	if ((r = v->ops->action(t, v, act)) >= 0) {
		if ((r & R_REBUILD) && t->view == v)
			tree_build(v->tree);
		return r;
	}
	h = tree_height(v->tree);
	switch (act) {
	case A_UP:
		tree_move(v->tree, -1);
		return R_LINES;
	case A_DOWN:
		tree_move(v->tree, 1);
		return R_LINES;
	case A_PGUP:
		tree_move(v->tree, -h);
		return R_LINES;
	case A_PGDN:
		tree_move(v->tree, h);
		return R_LINES;
	case A_HOME:
		tree_home(v->tree);
		return R_LINES;
	case A_END:
		tree_end(v->tree);
		return R_LINES;
	case A_BACK:
	case A_QUIT:
		/* Close the view; quit only from the top (tig, mutt). */
		if (v->prev == NULL)
			return tui_quit(t);
		tui_pop(t);
		return R_ALL;
	case A_HELP:
		/* No option help here: the keys. */
		help_keys_open(t);
		return R_ALL;
	case A_SAVE:
		tui_save(t);
		return R_ALL;
	case A_LOAD:
		def = tui_config_abs(t);
		tui_ask(t, "Load configuration: ", def, tui_load_done, NULL);
		free(def);
		return R_ALL;
	case A_SEARCH:
		tui_ask(t, "Search (regex): ", t->last_search,
		    tui_search_done, NULL);
		return R_ALL;
	case A_SHOW_ALL:
		t->show_all = !t->show_all;
		t->show_all_auto = false;	/* the user's now */
		tui_message(t, EL_STATUS, "show-all %s", t->show_all ? "on" :
		    "off");
		tree_build(v->tree);
		return R_ALL;
	case A_SHOW_NAME:
		t->show_name = !t->show_name;
		return R_ALL;
	case A_ONLY_NEW:
		t->only_new = !t->only_new;
		tui_message(t, EL_STATUS, "only NEW options: %s", t->only_new ?
		    "on" : "off");
		tree_build(v->tree);
		return R_ALL;
	case A_REDRAW:
		return R_ALL;
	case A_TRIM:
		return review_open(t);
	case A_EXPORT:
		return review_export(t);
	case A_UNDO:
		return review_undo(t);
	case A_ACCEPT:
	case A_REJECT:
	case A_SORT:
		tui_message(t, EL_STATUS, "%s: in the trim review (press t)",
		    key == 'o' ? "o sorts subsystems" : "a and r accept or "
		    "reject trims");
		return R_ALL;
	case A_VERIFY:
		/* Outside the trim review only to cancel a run; else a
		 * hotkey, as before it was bound. */
		if (verify_running(t))
			return verify_key(t);
		return tree_hotkey(v->tree, key) ? R_LINES : R_NONE;
	default:
		return R_NONE;
	}
}

/* A horizontal rule. */
static void
tui_rule(struct tui *t, struct row *r, int width)
{
	int i;

	for (i = 0; i < width; i++)
		row_add(r, EL_RULE, t->ascii ? "-" : "\u2500");
}

/*
 * The evidence legend in one of three lengths (0 the longest): marks
 * with their names, shorter names, marks alone; "? help" ends each.
 */
static void
tui_legend_marks(struct tui *t, struct row *r, int tier)
{
	static const char *names[3][4] = {
		{ "used", "plausible", "none", "no code" },
		{ "used", "plaus.", "none", "no code" },
		{ "", "", "", "" },
	};
	static const int els[] = { EL_EV_USED, EL_EV_PLAUSIBLE, EL_EV_NONE,
	    EL_EV_NOCODE };
	int v;

	row_add(r, EL_LEGEND, tier == 0 ? "Evidence: " : "");
	for (v = 0; v < 4; v++) {
		row_add(r, els[v], menu_verdict_mark(t, v));
		row_addf(r, EL_LEGEND, tier == 2 ? "" : tier == 1 ? "%s " :
		    " %s  ", names[tier][v]);
	}
	if (t->trim != NULL) {
		row_add(r, EL_TRIM, menu_trim_mark(t));
		row_add(r, EL_LEGEND, tier == 0 ? " suggested trim  " :
		    tier == 1 ? "trim " : " ");
	}
	if (tier < 2)
		row_add(r, EL_NEW, "(NEW)");
	row_add(r, EL_LEGEND, t->trim != NULL ? (tier == 0 ?
	    "  t trim review  ? help" : "  t review  ? help") : tier == 0 ?
	    " new since .config   ? help  / search  N new only" :
	    "  ? help  F1 keys");
}

/* The legend: the evidence marks, or the main keys; shorter on a
 * narrow screen, never without "? help". */
static void
tui_legend(struct tui *t, struct row *r, int width)
{
	int tier, start = r->n;

	if (load_busy(t)) {
		row_addf(r, EL_BUSY, " loading evidence%s ", t->ascii ? "..." :
		    "\u2026");
		row_add(r, EL_LEGEND, "  ? help  / search  s save  q quit");
		return;
	}
	if (t->a == NULL) {
		row_add(r, EL_LEGEND, width >= 90 ? "Enter open/toggle  y/m/n "
		    "set  ? help  / search  s save  l load  q quit  A all  N "
		    "new" : "? help  F1 keys  / search  s save  q quit");
		return;
	}
	for (tier = 0; tier < 3; tier++) {
		r->n = start;
		tui_legend_marks(t, r, tier);
		if (r->n <= width)
			break;
	}
}

void
tui_render(struct tui *t, struct row *rows, int height, int width)
{
	struct tui_view	*v = t->view;
	char		*title;
	const char	*mm;
	int		 i, list = height - TUI_TOP - TUI_BOTTOM;

	for (i = 0; i < height; i++)
		row_clear(&rows[i]);
	if (width < TUI_MIN_WIDTH || height < TUI_MIN_HEIGHT) {
		row_addf(&rows[0], EL_ERROR, "Terminal too small (%dx%d)",
		    width, height);
		if (height > 1)
			row_addf(&rows[1], EL_NORMAL, "kctui needs at least "
			    "%dx%d", TUI_MIN_WIDTH, TUI_MIN_HEIGHT);
		for (i = 0; i < height; i++)
			row_fit(&rows[i], EL_NORMAL, width);
		return;
	}
	mm = kconfig_mainmenu(t->k);
	row_addf(&rows[0], EL_TITLE, " %s - %s", t->config_path,
	    mm != NULL ? mm : "Kernel Configuration");
	row_fit(&rows[0], EL_TITLE, width);
	title = v->ops->title(t, v);
	row_addf(&rows[1], EL_HELP_TITLE, " %s", title);
	free(title);
	if (t->show_all)
		row_add(&rows[1], EL_INVISIBLE, "  [show-all]");
	if (t->only_new)
		row_add(&rows[1], EL_NEW, "  [NEW only]");
	row_fit(&rows[1], EL_NORMAL, width);
	row_add(&rows[2], EL_NORMAL, " ");
	tui_legend(t, &rows[2], width);
	row_fit(&rows[2], EL_NORMAL, width);
	if (v->ops->heading != NULL) {
		v->ops->heading(t, v, &rows[3], width);
		row_fit(&rows[3], EL_RULE, width);
	} else
		tui_rule(t, &rows[3], width);

	if (tree_height(v->tree) != list)
		tree_set_height(v->tree, list);
	for (i = 0; i < list; i++)
		tree_format(v->tree, i, &rows[TUI_TOP + i], width);
	if (tree_count(v->tree) == 0)
		row_add(&rows[TUI_TOP], EL_INVISIBLE, t->only_new ?
		    "  (no NEW options here)" : "  (empty)");

	tui_rule(t, &rows[height - 3], width);
	if (verify_running(t)) {
		/* The verify run's progress, over the rule. */
		row_clear(&rows[height - 3]);
		verify_row(t, &rows[height - 3], width);
	} else if (tree_count(v->tree) > list) {
		/* Where the list is: "(42%)" on the rule, as less does. */
		char	pct[16];
		int	n = snprintf(pct, sizeof pct, "(%d%%)",
		    (tree_offset(v->tree) + list) * 100 / tree_count(v->tree));

		rows[height - 3].n = width - n - 1;
		row_add(&rows[height - 3], EL_RULE, pct);
		tui_rule(t, &rows[height - 3], 1);
	}
	row_add(&rows[height - 2], EL_STATUS, " ");
	v->ops->info(t, v, &rows[height - 2], width);
	row_fit(&rows[height - 2], EL_STATUS, width);

	if (t->prompt == P_INPUT) {
		row_add(&rows[height - 1], EL_INPUT, t->prompt_text);
		row_add(&rows[height - 1], EL_INPUT, t->input->s != NULL ?
		    t->input->s : "");
		row_add(&rows[height - 1], EL_SELECTED, " ");
	} else if (t->prompt == P_CONFIRM_QUIT && review_naccepted(t) > 0)
		/* The accepted trims are in it: say so. */
		row_addf(&rows[height - 1], EL_INPUT, "Save the configuration, "
		    "with its %zu accepted trims, to %s? [y]es [n]o [Esc] "
		    "stay", review_naccepted(t), t->config_path);
	else if (t->prompt == P_CONFIRM_QUIT)
		row_addf(&rows[height - 1], EL_INPUT, "Save the configuration "
		    "to %s? [y]es [n]o [Esc] stay", t->config_path);
	else if (t->msg != NULL)
		row_add(&rows[height - 1], t->msg_el, t->msg);
	else if (t->esc)
		row_add(&rows[height - 1], EL_STATUS, "Esc (again to leave)");
	row_fit(&rows[height - 1], EL_NORMAL, width);
	if (t->w != NULL && t->snap->gen < t->gen) {
		const char *busy = t->ascii ? " recomputing... " :
		    " recomputing\u2026 ";
		int n = (int)strlen(busy) - (t->ascii ? 0 : 2);

		rows[height - 1].n = width - n;
		row_add(&rows[height - 1], EL_BUSY, busy);
	} else if (t->dirty) {
		rows[height - 1].n = width - 10;
		row_add(&rows[height - 1], EL_STATUS, " modified ");
	}
}

/* ------------------------------------------------------------ curses */

/*
 * The screen: the rows it is formatted into; the colour pair and
 * attributes each theme element is painted with (curses types, so kept
 * here rather than in struct tui, which stays headless); paints so far
 * and the start time (clock_now()), for the bench log.
 */
struct tui_screen {
	struct row	*rows;
	int		 nrows;
	short		 pairs[EL_COUNT];
	attr_t		 attrs[EL_COUNT];
	int		 npaint;
	double		 t0;
};

/* Colour pairs and attributes of the theme's elements. */
static void
tui_colors(struct tui *t, struct tui_screen *scr)
{
	int	i, fg, bg;
	bool	color = false;

	/* COLORS and COLOR_PAIRS are only known once start_color() ran. */
	if (has_colors() && !t->theme.mono && start_color() == OK)
		color = COLORS >= 8;
	if (color)
		use_default_colors();
	for (i = 0; i < EL_COUNT; i++) {
		const struct theme_color *c = &t->theme.el[i];
		attr_t a = 0;

		if (c->attrs & TA_BOLD)
			a |= A_BOLD;
		if (c->attrs & TA_REVERSE)
			a |= A_REVERSE;
		if (c->attrs & TA_UNDERLINE)
			a |= A_UNDERLINE;
		if (c->attrs & TA_DIM)
			a |= A_DIM;
#ifdef A_ITALIC
		if (c->attrs & TA_ITALIC)
			a |= A_ITALIC;
#endif
		scr->pairs[i] = 0;
		if (color) {
			fg = c->fg;
			bg = c->bg;
			/* 16 colours on an 8-colour terminal: bold. */
			if (fg >= COLORS) {
				if (fg >= 8 && fg < 16)
					a |= A_BOLD;
				fg = fg < 16 ? fg % 8 : -1;
			}
			if (bg >= COLORS)
				bg = bg < 16 ? bg % 8 : -1;
			if (i + 1 < COLOR_PAIRS) {
				init_pair((short)(i + 1), (short)fg, (short)bg);
				scr->pairs[i] = (short)(i + 1);
			}
		} else if (i == EL_SELECTED || i == EL_STATUS ||
		    i == EL_TITLE || i == EL_BUSY)
			a |= (i == EL_TITLE ? A_BOLD : A_REVERSE);
		scr->attrs[i] = a;
	}
}

/* Paint the screen's rows. */
static void
tui_paint(struct tui *t, struct tui_screen *scr)
{
	struct row	*rows = scr->rows;
	int		 i, j;
	cchar_t		 cc;
	wchar_t		 wc[2];

	for (i = 0; i < t->height; i++) {
		for (j = 0; j < rows[i].n && j < t->width; j++) {
			int el = rows[i].el[j];

			wc[0] = (wchar_t)rows[i].ch[j];
			wc[1] = L'\0';
			setcchar(&cc, wc, scr->attrs[el], scr->pairs[el],
			    NULL);
			mvadd_wch(i, j, &cc);
		}
	}
	move(t->height - 1, t->prompt == P_INPUT ? rows[t->height - 1].n : 0);
}

/* A curses key as ours. */
static int
tui_curses_key(int rc, wint_t wch)
{
	if (rc == KEY_CODE_YES) {
		switch (wch) {
		case KEY_UP: return K_UP;
		case KEY_DOWN: return K_DOWN;
		case KEY_LEFT: return K_LEFT;
		case KEY_RIGHT: return K_RIGHT;
		case KEY_PPAGE: return K_PPAGE;
		case KEY_NPAGE: return K_NPAGE;
		case KEY_HOME: return K_HOME;
		case KEY_END: return K_END;
		case KEY_ENTER: return K_ENTER;
		case KEY_BACKSPACE: return K_BACKSPACE;
		case KEY_DC: return K_DEL;
		case KEY_F(1): return K_F1;
		case KEY_RESIZE: return K_RESIZE;
		default: return -1;
		}
	}
	switch (wch) {
	case 27: return K_ESC;
	case '\n':
	case '\r': return K_ENTER;
	case 127:
	case 8: return K_BACKSPACE;
	}
	return (int)wch;
}

/* The worker's parse repeats the first one's warnings: already seen. */
static void
tui_quiet(void *arg, const char *text)
{
	(void)arg;
	(void)text;
}

/* The worker's own configuration: parsed again from the same tree. */
static struct kconfig *
tui_worker_open(void *arg, char **cause)
{
	struct tui		*t = arg;
	struct kconfig		*k;
	int			 i, n;

	k = session_new_kconfig(t->session, tui_quiet, tui_quiet);
	if (kconfig_parse(k, t->session->kconfig, cause) != 0) {
		kconfig_free(k);
		return NULL;
	}
	/* Values are handed over by symbol index: the two parses must have
	 * made the same symbols in the same order. Names are immutable
	 * after parsing, so reading the interface's ones here is safe. */
	n = kconfig_nsymbols(k);
	for (i = 0; i < n && n == kconfig_nsymbols(t->k); i++) {
		const char *a = kc_sym_name(kconfig_symbol(k, i));
		const char *b = kc_sym_name(kconfig_symbol(t->k, i));

		if ((a == NULL) != (b == NULL) || (a != NULL &&
		    strcmp(a, b) != 0))
			break;
	}
	if (i < n || n != kconfig_nsymbols(t->k)) {
		*cause = xasprintf("background worker off: its parse made "
		    "symbols in another order (cold $(shell) cache?)");
		kconfig_free(k);
		return NULL;
	}
	return k;
}

/* Bench log lines: "what ms [detail]". */
void
tui_bench(struct tui *t, const char *fmt, ...)
{
	va_list ap;

	if (t->bench == NULL)
		return;
	va_start(ap, fmt);
	vfprintf(t->bench, fmt, ap);
	va_end(ap);
	fputc('\n', t->bench);
	fflush(t->bench);
}

/*
 * Paint what flags (R_*) says changed: all of it after R_ALL (the size may
 * have changed too). The bench log gets the first paint's time since the
 * start, then that of every paint keys caused since tk (< 0: none did).
 */
static void
tui_refresh(struct tui *t, struct tui_screen *scr, int flags, double tk)
{
	int i;

	if (flags & R_ALL) {
		getmaxyx(stdscr, t->height, t->width);
		erase();
	}
	if (scr->nrows < t->height) {
		scr->rows = xrealloc(scr->rows, (size_t)t->height *
		    sizeof *scr->rows);
		for (i = scr->nrows; i < t->height; i++)
			row_init(&scr->rows[i]);
		scr->nrows = t->height;
	}
	tui_render(t, scr->rows, t->height, t->width);
	tui_paint(t, scr);
	refresh();
	if (scr->npaint++ == 0)
		tui_bench(t, "first-paint %.3f", (clock_now() - scr->t0) * 1e3);
	else if (tk >= 0)
		tui_bench(t, "key %.3f busy %d", (clock_now() - tk) * 1e3,
		    t->w != NULL && t->snap->gen < t->gen);
}

/*
 * Open the configuration and set t up over it, with the bench log; -1
 * (reason printed) without a configuration or a terminal. Evidence (-e)
 * loads on a thread once the menu is painted.
 */
static int
tui_open(struct tui *t, struct session *s)
{
	struct kconfig	*k;
	const char	*name;
	char		*cause = NULL;
	bool		 existed;

	setlocale(LC_ALL, "");
	name = s->config_path;
	existed = access(name, F_OK) == 0;
	s->config_may_be_new = true;	/* saved on exit */
	if ((k = session_open_config(s, &cause)) == NULL) {
		fprintf(stderr, "%s\n", cause);
		free(cause);
		return -1;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "kctui: the interactive mode needs a terminal "
		    "(use a mode such as olddefconfig otherwise)\n");
		kconfig_free(k);
		return -1;
	}
	tui_init(t, s, k, NULL);
	t->config_existed = existed;
	t->config_path = xstrdup(name);
	t->config_base = kconfig_write_string(k);
	if (getenv("KCTUI_BENCH_LOG") != NULL)
		t->bench = fopen(getenv("KCTUI_BENCH_LOG"), "a");
	return 0;
}

/*
 * Load the theme: -t, else KCTUI_THEME, else mono under NO_COLOR; the
 * line drawing by the locale. The error of one that did not load
 * (malloc'd, the default theme stays) is returned, or NULL.
 */
static char *
tui_theme(struct tui *t, const char *theme_spec)
{
	const char	*spec = theme_spec;
	char		*theme_err = NULL;

	if (spec == NULL && (spec = getenv("KCTUI_THEME")) != NULL &&
	    *spec == '\0')
		spec = NULL;
	if (spec == NULL && getenv("NO_COLOR") != NULL &&
	    *getenv("NO_COLOR") != '\0')
		spec = "mono";
	if (spec != NULL && theme_load(&t->theme, spec, &theme_err) != 0)
		fprintf(stderr, "kctui: %s (using the default theme)\n",
		    theme_err);
	t->ascii = strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
	return theme_err;
}

/* Start the background worker; without it values are computed here. */
static void
tui_worker_start(struct tui *t)
{
	struct worker_hooks	 hooks;
	char			*cause = NULL;

	memset(&hooks, 0, sizeof hooks);
	hooks.open = tui_worker_open;
	hooks.consequences = review_consequences;
	hooks.consequences_free = review_consequences_free;
	hooks.arg = t;
	if ((t->w = worker_start(&hooks, NULL, &cause)) == NULL)
		free(cause);
}

/* Take over the terminal and set up the screen's colours. */
static void
tui_curses_start(struct tui *t, struct tui_screen *scr)
{
	if (getenv("ESCDELAY") == NULL)
		set_escdelay(25);
	initscr();
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	tui_colors(t, scr);
	getmaxyx(stdscr, t->height, t->width);
}

/*
 * The worker's pipe is readable: take its snapshot, or, if it failed,
 * stop it and compute here from now on. R_* flags.
 */
static int
tui_worker_ready(struct tui *t)
{
	struct worker_snapshot	*s;
	char			*cause;

	if ((s = worker_collect(t->w)) != NULL) {
		tui_bench(t, "worker %.3f gen %llu", s->compute_ms,
		    (unsigned long long)s->gen);
		review_collect(t, s);
		worker_snapshot_free(t->snap);
		t->snap = s;
		review_sync(t);
		tree_build(t->view->tree);
		return R_ALL;
	}
	if ((cause = worker_error(t->w)) != NULL) {
		tui_message(t, EL_ERROR, "%s", cause);
		free(cause);
		worker_stop(t->w);
		t->w = NULL;
		/* Whatever was submitted: compute it here. */
		tui_recompute(t);
		tree_build(t->view->tree);
		return R_ALL;
	}
	return R_NONE;
}

/*
 * The main loop, until quit: paint, wait for the terminal, the worker or
 * the loader, and take what they brought.
 */
static void
tui_loop(struct tui *t, struct tui_screen *scr)
{
	struct pollfd	 pfd[4];
	double		 tk = -1;
	int		 flags = R_ALL, rc, key = -1;
	wint_t		 wch;

	while (!t->quit) {
		/* The one place that paints: after keys, or what the
		 * worker and the loader brought. */
		if (flags != R_NONE)
			tui_refresh(t, scr, flags, key >= 0 ? tk : -1);
		flags = R_NONE;
		pfd[0].fd = STDIN_FILENO;
		pfd[0].events = POLLIN;
		pfd[1].fd = t->w != NULL ? worker_fd(t->w) : -1;
		pfd[1].events = POLLIN;
		pfd[2].fd = load_fd(t);
		pfd[2].events = POLLIN;
		pfd[3].fd = verify_fd(t);
		pfd[3].events = POLLIN;
		if (poll(pfd, 4, -1) < 0 && errno != EINTR)
			break;
		if (pfd[3].fd >= 0 && (pfd[3].revents & POLLIN))
			flags |= verify_ready(t);
		if (pfd[2].fd >= 0 && (pfd[2].revents & POLLIN))
			flags |= load_finish(t);
		if (t->w != NULL && (pfd[1].revents & POLLIN))
			flags |= tui_worker_ready(t);
		/* Every key waiting, then one paint (above). */
		tk = clock_now();
		key = -1;
		while (!t->quit && (rc = get_wch(&wch)) != ERR) {
			if ((key = tui_curses_key(rc, wch)) < 0)
				continue;
			flags |= tui_key(t, key);
		}
	}
}

/* The interactive mode: the menu of the session's configuration. */
int
tui_main(struct session *s, const char *theme_spec)
{
	struct tui		 t;
	struct tui_screen	 scr;
	struct kconfig		*k;
	char			*theme_err;
	int			 i;

	memset(&scr, 0, sizeof scr);
	scr.t0 = clock_now();
	if (tui_open(&t, s) != 0)
		return 1;
	k = t.k;
	theme_err = tui_theme(&t, theme_spec);
	tui_worker_start(&t);
	tui_curses_start(&t, &scr);
	menu_open(&t, kconfig_root(k));
	if (theme_err != NULL)
		tui_message(&t, EL_ERROR, "%s (default theme)", theme_err);
	load_start(&t);
	tui_loop(&t, &scr);

	endwin();
	/* Its child killed, its thread joined. */
	verify_stop(&t);
	for (i = 0; i < scr.nrows; i++)
		row_free(&scr.rows[i]);
	free(scr.rows);
	worker_stop(t.w);
	t.w = NULL;
	if (t.bench != NULL)
		fclose(t.bench);
	free(theme_err);
	tui_done(&t);
	kconfig_free(k);
	return 0;
}
