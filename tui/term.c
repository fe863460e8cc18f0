/* SPDX-License-Identifier: GPL-2.0 */
/*
 * term.c - the browser's terminal: curses started and stopped, the theme's
 * colours, the rows tui.c formats painted, keys read, signals (Ctrl-C,
 * Ctrl-Z, a resize) taken through a pipe, and the main loop, which polls
 * the terminal, the signals and the background jobs' pipes. Curses is
 * called from this thread only, and only here.
 */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "../core/session.h"
#include "../core/worker.h"
#include "../kconfig-parser/kconfig.h"
#include "../lib/clock.h"
#include "../lib/util.h"
#include "tree.h"
#include "tui.h"

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
	/* The terminal's cursor on the selected cell of the input. */
	for (j = 0; t->prompt == P_INPUT && j < rows[t->height - 1].n; j++)
		if (rows[t->height - 1].el[j] == EL_SELECTED)
			break;
	move(t->height - 1, t->prompt == P_INPUT ? j : 0);
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
	/* Every cell again, not only what changed since the last paint. */
	if (flags & R_CLEAR)
		clearok(curscr, TRUE);
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
	/* A terminal that cannot move its cursor draws garbage: refused
	 * before curses takes it, with the way out. */
	if (getenv("TERM") == NULL || *getenv("TERM") == '\0' ||
	    strcmp(getenv("TERM"), "dumb") == 0) {
		fprintf(stderr, "kctui: the interactive mode needs a terminal "
		    "that can move its cursor (TERM is %s): set TERM (for "
		    "instance TERM=xterm) or use a mode such as olddefconfig\n",
		    getenv("TERM") != NULL && *getenv("TERM") != '\0' ?
		    getenv("TERM") : "not set");
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
	char		*theme_err = NULL, *file = NULL;

	if (spec == NULL && (spec = getenv("KCTUI_THEME")) != NULL &&
	    *spec == '\0')
		spec = NULL;
	if (spec == NULL && getenv("NO_COLOR") != NULL &&
	    *getenv("NO_COLOR") != '\0')
		spec = "mono";
	/* A theme file named relatively is the user's, from where kctui
	 * was started (as --config), not from the tree after -C. */
	if (spec != NULL && spec[0] != '/' && (strchr(spec, '/') != NULL ||
	    (strlen(spec) > 5 && strcmp(spec + strlen(spec) - 5, ".yaml") ==
	    0)))
		spec = file = session_path(t->session, spec);
	if (spec != NULL && theme_load(&t->theme, spec, &theme_err) != 0)
		fprintf(stderr, "kctui: %s (using the default theme)\n",
		    theme_err);
	free(file);
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
	/* cbreak, not raw: C-c, C-z and C-\\ stay the terminal's signals
	 * (tui_signals), and flow control stays the user's. */
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	tui_colors(t, scr);
	getmaxyx(stdscr, t->height, t->width);
}

/*
 * Signals become bytes on a pipe the main loop polls (the self-pipe
 * trick): their handlers do nothing else, so that curses is only ever
 * called from the loop, between keys. C-c asks to quit, C-z suspends
 * (tui_suspend), SIGCONT (fg, or a kill -CONT) repaints.
 */
static int	tui_sigpipe[2] = { -1, -1 };

static void
tui_signal(int sig)
{
	int	saved = errno;
	char	c = sig == SIGINT ? 'C' : sig == SIGTSTP ? 'Z' : 'R';
	ssize_t	n;

	n = write(tui_sigpipe[1], &c, 1);
	(void)n;	/* full: the loop has bytes to read anyway */
	errno = saved;
}

/* Catch SIGINT, SIGTSTP and SIGCONT (after initscr, whose own handlers
 * for them would call curses from the handler). */
static void
tui_signals(void)
{
	struct sigaction	sa;
	int			i, sigs[] = { SIGINT, SIGTSTP, SIGCONT };

	if (pipe(tui_sigpipe) != 0)
		return;		/* the terminal's defaults, then */
	for (i = 0; i < 2; i++) {
		fcntl(tui_sigpipe[i], F_SETFL, O_NONBLOCK);
		fcntl(tui_sigpipe[i], F_SETFD, FD_CLOEXEC);
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = tui_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, NULL);
}

/* The defaults again, once curses let the terminal go: C-c while the
 * background work stops is the shell's. */
static void
tui_signals_reset(void)
{
	struct sigaction	sa;
	int			i, sigs[] = { SIGINT, SIGTSTP, SIGCONT };

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, NULL);
}

/* Give the terminal back and stop, as a shell's job; the screen is
 * painted again when the shell continues us (fg). */
static void
tui_suspend(void)
{
	struct sigaction sa, old;

	endwin();
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTSTP, &sa, &old);
	raise(SIGTSTP);		/* returns on SIGCONT */
	sigaction(SIGTSTP, &old, NULL);
	/* Curses takes the terminal back at the next refresh. */
}

/* The signals' bytes: R_* flags. */
static int
tui_signals_read(struct tui *t)
{
	char	buf[16];
	ssize_t	n, i;
	int	flags = R_NONE;

	while ((n = read(tui_sigpipe[0], buf, sizeof buf)) > 0) {
		for (i = 0; i < n; i++) {
			if (buf[i] == 'C')
				flags |= tui_interrupt(t);
			else if (buf[i] == 'Z') {
				tui_suspend();
				flags |= R_ALL | R_CLEAR;
			} else
				flags |= R_ALL | R_CLEAR;
		}
	}
	return flags;
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
	struct pollfd	 pfd[5];
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
		pfd[4].fd = tui_sigpipe[0];
		pfd[4].events = POLLIN;
		if (poll(pfd, 5, -1) < 0 && errno != EINTR)
			break;
		if (pfd[4].fd >= 0 && (pfd[4].revents & POLLIN))
			flags |= tui_signals_read(t);
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
	tui_signals();
	menu_open(&t, kconfig_root(k));
	if (theme_err != NULL)
		tui_message(&t, EL_ERROR, "%s (default theme)", theme_err);
	load_start(&t);
	tui_loop(&t, &scr);

	endwin();
	tui_signals_reset();
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
