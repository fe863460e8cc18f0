/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tui.c - the interactive front end: state, the view stack, keys and the
 * prompt line, the screen layout (formatted headless into rows). The
 * terminal itself (curses, signals, the main loop) is term.c's.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#include "../core/session.h"
#include "../core/worker.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/fileio.h"
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
	pthread_mutex_init(&t->trim_lock, NULL);
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
	free(t->input_hint);
	free(t->confirm_text);
	free(t->confirm_path);
	if (t->input != NULL) {
		strbuf_free(t->input);
		free(t->input);
	}
	free(t->config_path);
	free(t->config_base);
	free(t->last_search);
	theme_free(&t->theme);
	pthread_mutex_destroy(&t->req_lock);
	pthread_mutex_destroy(&t->trim_lock);
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
void
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
	if (t->w != NULL && t->trim != NULL) {
		/* The review's counts with the values (issue 35, item 6). */
		review_request(t);
		return;
	}
	if (t->w != NULL) {
		t->gen = worker_submit(t->w, kconfig_values_save(t->k));
		return;
	}
	/* No worker (it failed to start): compute here. */
	tui_recompute(t);
	if (t->trim != NULL)
		review_request(t);
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
	/* The cursor at the end: the offered text (a default path, the
	 * value being edited) is edited, as in mconf's input box and a
	 * shell; what is typed goes in, it replaces nothing. */
	t->input_cur = t->input->len;
	free(t->input_hint);
	t->input_hint = NULL;
	t->input_done = done;
	t->input_arg = arg;
	t->prompt = P_INPUT;
}

void
tui_ask_hint(struct tui *t, const char *prompt, const char *hint,
    void (*done)(struct tui *, const char *, void *), void *arg)
{
	tui_ask(t, prompt, NULL, done, arg);
	if (hint != NULL && *hint != '\0')
		t->input_hint = xstrdup(hint);
}

void
tui_confirm(struct tui *t, const char *question, const char *path,
    void (*yes)(struct tui *, const char *),
    void (*other)(struct tui *, const char *))
{
	free(t->confirm_text);
	free(t->confirm_path);
	t->confirm_text = xasprintf("%s [y]es%s, any other key: no", question,
	    other != NULL ? " [a]nother file" : "");
	t->confirm_path = xstrdup(path);
	t->confirm_yes = yes;
	t->confirm_other = other;
	t->prompt = P_CONFIRM;
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

/* Whether leaving would lose something: values changed since the last
 * save (or not yet what the file holds), or trim decisions. */
static bool
tui_unsaved(struct tui *t)
{
	return t->dirty || kconfig_changed(t->k) || review_unsaved(t) > 0;
}

/*
 * Write the configuration to its file, and the trim decisions made since
 * the last save to theirs: the one act that writes what is being edited
 * (s, or y when leaving). The paths are said in full.
 */
bool
tui_save(struct tui *t)
{
	char *cause = NULL, *abs, *dabs;

	if (kconfig_write(t->k, t->config_path, &cause) != 0) {
		tui_message(t, EL_ERROR, "%s", cause);
		free(cause);
		return false;
	}
	abs = tui_config_abs(t);
	if (review_unsaved(t) > 0) {
		if (review_save(t, &cause) != 0) {
			tui_message(t, EL_ERROR, "Configuration written to %s; "
			    "the decisions not: %s", abs, cause);
			free(cause);
			free(abs);
			return false;
		}
		dabs = tui_path_abs(review_decisions_path(t));
		tui_message(t, EL_STATUS, "Configuration written to %s, the "
		    "trim decisions to %s", abs, dabs);
		free(dabs);
	} else
		tui_message(t, EL_STATUS, "Configuration written to %s", abs);
	free(abs);
	t->dirty = false;
	return true;
}

/* y to "write the configuration to another file": it becomes the file
 * being edited (the title, the next save), as mconf's Save does. */
static void
tui_save_as(struct tui *t, const char *path)
{
	char *old = t->config_path, *cur = tui_config_abs(t);

	if (path_same_file(path, cur)) {
		free(cur);
		tui_save(t);
		return;
	}
	free(cur);
	t->config_path = xstrdup(path);
	review_follow_config(t, path);
	if (!tui_save(t)) {
		free(t->config_path);
		t->config_path = old;
		return;
	}
	free(old);
	/* Suggestions for this file now (issue 35: they stayed those of
	 * the first one). */
	load_retrim(t);
}

/* The name typed after s a: written after a y to a question naming it,
 * so that text typed by mistake never makes a file. */
static void
tui_save_done(struct tui *t, const char *path, void *arg)
{
	char *abs, *q;

	(void)arg;
	if (path == NULL || *path == '\0') {
		tui_message(t, EL_STATUS, "Not saved");
		return;
	}
	abs = session_path(t->session, path);
	q = xasprintf("Write the configuration to %s%s?", abs,
	    access(abs, F_OK) == 0 ? " (it exists: replaced, the previous "
	    "one kept as .old)" : "");
	tui_confirm(t, q, abs, tui_save_as, NULL);
	free(q);
	free(abs);
}

/* a to the save question: another name, the offered one edited. */
static void
tui_save_other(struct tui *t, const char *path)
{
	tui_ask(t, "Save the configuration to: ", path, tui_save_done, NULL);
}

/* A path of kctui's (relative to the tree, where kctui runs after -C)
 * made absolute, to be said in full (malloc'd). */
char *
tui_path_abs(const char *path)
{
	char *cwd, *abs;

	if (*path == '/' || (cwd = getcwd(NULL, 0)) == NULL)
		return xstrdup(path);
	abs = xasprintf("%s/%s", cwd, path);
	free(cwd);
	return abs;
}

/* The configuration's path, absolute. */
char *
tui_config_abs(struct tui *t)
{
	return tui_path_abs(t->config_path);
}

/*
 * Read path into the configuration with the engine's warnings caught in
 * a temporary file, not printed over the screen: stderr (fd 2) points
 * there meanwhile, and back to what it was (the loader's own catch, if
 * it is running). kconfig_read's result; *warnings the text (malloc'd)
 * or NULL.
 */
static int
tui_read_caught(struct tui *t, const char *path, char **warnings,
    char **cause)
{
	FILE	*tmp = tmpfile();
	int	 saved = -1, rc;
	long	 len;

	*warnings = NULL;
	fflush(stderr);
	if (tmp != NULL && (saved = dup(STDERR_FILENO)) >= 0)
		dup2(fileno(tmp), STDERR_FILENO);
	rc = kconfig_read(t->k, path, cause);
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, STDERR_FILENO);
		close(saved);
	}
	if (tmp == NULL)
		return rc;
	if ((len = ftell(tmp)) > 0) {
		*warnings = xmalloc((size_t)len + 1);
		rewind(tmp);
		len = (long)fread(*warnings, 1, (size_t)len, tmp);
		(*warnings)[len] = '\0';
	}
	fclose(tmp);
	return rc;
}

/* The path typed for l: read that configuration (a relative one from
 * where kctui was started, as --config). As mconf's Load, it becomes the
 * file being edited: the title and what s writes. Its warnings go to a
 * pager, above the screen, not over it. */
static void
tui_load_done(struct tui *t, const char *path, void *arg)
{
	char	*cause = NULL, *abs, *warnings;
	int	 rc;

	(void)arg;
	if (path == NULL || *path == '\0')
		return;
	abs = session_path(t->session, path);
	rc = tui_read_caught(t, abs, &warnings, &cause);
	if (rc != 0) {
		tui_message(t, EL_ERROR, "%s: %s", abs, rc > 0 ?
		    "no such file" : cause);
		free(cause);
		free(warnings);
		free(abs);
		return;
	}
	free(t->config_path);
	t->config_path = abs;
	t->config_existed = true;
	review_follow_config(t, abs);
	tui_changed(t);
	load_retrim(t);
	/* What the file holds is what is being edited: nothing unsaved
	 * (but what saving would add, which the quit question sees). */
	t->dirty = false;
	if (warnings != NULL)
		help_text_open(t, xasprintf("Warnings loading %s", abs),
		    warnings);
	tui_message(t, EL_STATUS, "Configuration loaded from %s; s saves "
	    "to it%s", abs, warnings != NULL ? " (its warnings are open; q "
	    "closes them)" : "");
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

/* The start of the UTF-8 character before byte offset i of s. */
static size_t
tui_utf8_prev(const char *s, size_t i)
{
	while (i > 0 && ((unsigned char)s[--i] & 0xc0) == 0x80)
		;
	return i;
}

/* The end of the UTF-8 character at byte offset i of s (len bytes). */
static size_t
tui_utf8_next(const char *s, size_t len, size_t i)
{
	if (i < len)
		i++;
	while (i < len && ((unsigned char)s[i] & 0xc0) == 0x80)
		i++;
	return i;
}

/* Remove bytes [from, to) of the input; the cursor goes to from. */
static void
tui_input_cut(struct tui *t, size_t from, size_t to)
{
	struct strbuf *in = t->input;

	if (to <= from)
		return;
	memmove(in->s + from, in->s + to, in->len - to + 1);
	in->len -= to - from;
	t->input_cur = from;
}

/* The hint becomes the text, to edit (Right, End, C-e on an empty line). */
static void
tui_input_take_hint(struct tui *t)
{
	if (t->input_hint == NULL || t->input->len > 0)
		return;
	strbuf_adds(t->input, t->input_hint);
	t->input_cur = t->input->len;
	free(t->input_hint);
	t->input_hint = NULL;
}

/*
 * A key while the bottom line asks for text: readline's (and a shell's)
 * editing keys, so that a default is edited in place, never replaced by
 * the first key: Left, Right, Home/C-a, End/C-e, Backspace, Del/C-d,
 * C-u (to the start), C-k (to the end), C-w (the word, or the path
 * component, before the cursor); Enter takes the line, Esc drops it.
 */
static int
tui_input_key(struct tui *t, int key)
{
	void		(*done)(struct tui *, const char *, void *) =
			    t->input_done;
	struct strbuf	*in = t->input;
	char		*text, b[4];
	size_t		 i, n;

	/* The buffer may still be unallocated (nothing in it). */
	if (in->s == NULL)
		strbuf_adds(in, "");
	switch (key) {
	case K_ENTER:
		t->prompt = P_NONE;
		text = xstrdup(in->len == 0 && t->input_hint != NULL ?
		    t->input_hint : in->s);
		done(t, text, t->input_arg);
		free(text);
		return R_ALL;
	case K_ESC:
		t->prompt = P_NONE;
		return R_ALL;
	case K_LEFT:
		t->input_cur = tui_utf8_prev(in->s, t->input_cur);
		return R_LINES;
	case K_RIGHT:
		tui_input_take_hint(t);
		t->input_cur = tui_utf8_next(in->s, in->len, t->input_cur);
		return R_LINES;
	case K_HOME:
	case 'A' & 0x1f:
		t->input_cur = 0;
		return R_LINES;
	case K_END:
	case 'E' & 0x1f:
		tui_input_take_hint(t);
		t->input_cur = in->len;
		return R_LINES;
	case K_BACKSPACE:
	case 'H' & 0x1f:
		tui_input_cut(t, tui_utf8_prev(in->s, t->input_cur),
		    t->input_cur);
		return R_LINES;
	case K_DEL:
	case 'D' & 0x1f:
		tui_input_cut(t, t->input_cur, tui_utf8_next(in->s, in->len,
		    t->input_cur));
		return R_LINES;
	case 'U' & 0x1f:
		tui_input_cut(t, 0, t->input_cur);
		return R_LINES;
	case 'K' & 0x1f:
		tui_input_cut(t, t->input_cur, in->len);
		return R_LINES;
	case 'W' & 0x1f:
		/* Blanks, then the word: a path's last component (with its
		 * slash) goes alone, as the shells' C-w in paths. */
		i = t->input_cur;
		while (i > 0 && in->s[i - 1] == ' ')
			i--;
		if (i > 0 && in->s[i - 1] == '/')
			i--;
		while (i > 0 && in->s[i - 1] != ' ' && in->s[i - 1] != '/')
			i--;
		tui_input_cut(t, i, t->input_cur);
		return R_LINES;
	}
	if (key >= 0x20 && key < 0x110000 && key != 0x7f) {
		/* Typed text is a new line, not the hint's. */
		free(t->input_hint);
		t->input_hint = NULL;
		n = (size_t)utf8_encode((uint32_t)key, b);
		strbuf_add(in, b, n);	/* room (and the NUL) at the end */
		memmove(in->s + t->input_cur + n, in->s + t->input_cur,
		    in->len - n - t->input_cur);
		memcpy(in->s + t->input_cur, b, n);
		t->input_cur += n;
		return R_LINES;
	}
	return R_NONE;
}

/* The answer to a "write FILE?" question: only y writes. */
static int
tui_yes_key(struct tui *t, int key)
{
	char *path = t->confirm_path;

	t->prompt = P_NONE;
	t->confirm_path = NULL;
	if (key == 'y' || key == 'Y')
		t->confirm_yes(t, path);
	else if (key == 'a' && t->confirm_other != NULL)
		t->confirm_other(t, path);
	else
		tui_message(t, EL_STATUS, "Nothing written (%s)", path);
	free(path);
	return R_ALL;
}

/* The quit question: y saves and leaves, n leaves without
 * writing, and so does C-c when C-c asked; any other key stays. */
static int
tui_confirm_key(struct tui *t, int key)
{
	bool sigint = t->quit_sigint;

	t->prompt = P_NONE;
	t->quit_sigint = false;
	/* y only: a line typed by mistake ends in Enter. */
	if (key == 'y' || key == 'Y') {
		if (!tui_unsaved(t) || tui_save(t))
			t->quit = true;
		return t->quit ? R_QUIT : R_ALL;
	}
	if (key == 'n' || key == 'N' || (sigint && key == ('C' & 0x1f))) {
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
	if (tui_unsaved(t)) {
		t->prompt = P_CONFIRM_QUIT;
		return R_ALL;
	}
	t->quit = true;
	return R_QUIT;
}

/*
 * C-c (SIGINT, as the terminal is in cbreak mode): a question that counts
 * what would be lost, whatever is on the bottom line; C-c again leaves
 * without writing anything.
 */
int
tui_interrupt(struct tui *t)
{
	if (t->prompt == P_CONFIRM_QUIT && t->quit_sigint)
		return tui_confirm_key(t, 'C' & 0x1f);
	if (t->prompt == P_CONFIRM) {
		tui_message(t, EL_STATUS, "Nothing written (%s)",
		    t->confirm_path);
		free(t->confirm_path);
		t->confirm_path = NULL;
	}
	t->prompt = P_CONFIRM_QUIT;
	t->quit_sigint = true;
	return R_ALL;
}

int
tui_key(struct tui *t, int key)
{
	struct tui_view		*v = t->view;
	enum tui_action		 act;
	char			*def, *q, kb[8];
	int			 r, h;

	if (key == K_RESIZE)
		return R_ALL;
	/* C-l repaints whatever is asked (the terminal may hold what
	 * another program wrote over the screen). */
	if (key == ('L' & 0x1f))
		return R_ALL | R_CLEAR;
	if (t->prompt == P_INPUT)
		return tui_input_key(t, key);
	if (t->prompt == P_CONFIRM_QUIT)
		return tui_confirm_key(t, key);
	if (t->prompt == P_CONFIRM)
		return tui_yes_key(t, key);
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
		/* Never a write on one key: y to a question naming the
		 * file (a: another name). */
		def = tui_config_abs(t);
		q = xasprintf("Save the configuration to %s%s?", def,
		    review_unsaved(t) > 0 ? " (and the trim decisions)" : "");
		tui_confirm(t, q, def, tui_save_as, tui_save_other);
		free(q);
		free(def);
		return R_ALL;
	case A_LOAD:
		def = tui_config_abs(t);
		tui_ask(t, "Load configuration: ", def, tui_load_done, NULL);
		free(def);
		return R_ALL;
	case A_SEARCH:
		tui_ask_hint(t, "Search (regex): ", t->last_search,
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
		return R_ALL | R_CLEAR;
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
		/* Every key acts or says why not. */
		tui_message(t, EL_STATUS, "%s: nothing to do in this view (F1 "
		    "lists the keys)", keys_name(key, kb));
		return R_ALL;
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

/*
 * The line being typed, after its prompt, with the cursor's cell drawn
 * selected (on the hint's first character when the line is empty); a
 * line longer than the screen scrolls to keep the cursor in view.
 */
static void
tui_input_row(struct tui *t, struct row *r, int width)
{
	const char	*s = t->input->s != NULL ? t->input->s : "";
	char		*before = xstrndup(s, t->input_cur);
	int		 cur, shift, i;

	row_add(r, EL_INPUT, t->prompt_text);
	row_add(r, EL_INPUT, before);
	free(before);
	cur = r->n;
	if (t->input_hint != NULL && *s == '\0') {
		row_add(r, EL_INVISIBLE, t->input_hint);
		if (r->n > cur)
			r->el[cur] = EL_SELECTED;
	} else {
		row_add(r, EL_INPUT, s + t->input_cur);
		if (r->n == cur)
			row_add(r, EL_INPUT, " ");
		r->el[cur] = EL_SELECTED;
	}
	if (cur < width - 1)
		return;
	/* Scroll: the cursor on the screen's last cells but one. */
	shift = cur - (width - 2);
	for (i = shift; i < r->n; i++) {
		r->ch[i - shift] = r->ch[i];
		r->el[i - shift] = r->el[i];
	}
	r->n -= shift;
	r->ch[0] = '<';
}

/* The quit question: what would be lost, and the way out. */
static void
tui_quit_row(struct tui *t, struct row *r)
{
	size_t	 nacc = review_naccepted(t), ndec = review_unsaved(t);
	char	*abs = tui_config_abs(t);

	/* First, where a long path cannot push it off the screen. */
	if (t->quit_sigint)
		row_add(r, EL_INPUT, tui_unsaved(t) ? "C-c again: quit "
		    "without saving. " : "C-c again: quit. ");
	if (!tui_unsaved(t))
		row_addf(r, EL_INPUT, "Leave kctui? [y]es [Esc] stay");
	else if (nacc > 0)
		/* The accepted trims are in it: say so. */
		row_addf(r, EL_INPUT, "Save the configuration, with its %zu "
		    "accepted trims, to %s? [y]es [n]o [Esc] stay", nacc, abs);
	else if (ndec > 0 && !t->dirty && !kconfig_changed(t->k))
		row_addf(r, EL_INPUT, "Save the configuration and %zu trim "
		    "decisions, to %s? [y]es [n]o [Esc] stay", ndec, abs);
	else
		row_addf(r, EL_INPUT, "Save the configuration to %s? [y]es "
		    "[n]o [Esc] stay", abs);
	free(abs);
}

void
tui_render(struct tui *t, struct row *rows, int height, int width)
{
	struct tui_view	*v = t->view;
	char		*title;
	const char	*mm;
	int		 i, used, list = height - TUI_TOP - TUI_BOTTOM;

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

	if (t->prompt == P_INPUT)
		tui_input_row(t, &rows[height - 1], width);
	else if (t->prompt == P_CONFIRM)
		row_add(&rows[height - 1], EL_INPUT, t->confirm_text);
	else if (t->prompt == P_CONFIRM_QUIT)
		tui_quit_row(t, &rows[height - 1]);
	else if (t->msg != NULL)
		row_add(&rows[height - 1], t->msg_el, t->msg);
	else if (t->esc)
		row_add(&rows[height - 1], EL_STATUS, "Esc (again to leave)");
	/* The marker on the right never covers a question or a message:
	 * they are what must be read. */
	used = rows[height - 1].n;
	row_fit(&rows[height - 1], EL_NORMAL, width);
	if (t->w != NULL && t->snap->gen < t->gen) {
		const char *busy = t->ascii ? " recomputing... " :
		    " recomputing\u2026 ";
		int n = (int)strlen(busy) - (t->ascii ? 0 : 2);

		if (used <= width - n) {
			rows[height - 1].n = width - n;
			row_add(&rows[height - 1], EL_BUSY, busy);
		}
	} else if (t->dirty && used <= width - 12) {
		/* Two blanks at least between a message and the marker:
		 * never "s sa modified" (issue 35, item 9). */
		rows[height - 1].n = width - 10;
		row_add(&rows[height - 1], EL_STATUS, " modified ");
	}
}
