/* SPDX-License-Identifier: GPL-2.0 */
/*
 * yamlread.h - the event reader under kctui's YAML loaders (themes,
 * profiles): one libyaml parser over a buffer, the current event, and the
 * first error as "name:line:col: what". A loader walks its document with
 * yamlread_next()/yamlread_key()/yamlread_item() and fails with
 * yamlread_error(); yamlread_document() checks the stream's frame (one
 * document) around the loader's own walk.
 */
#ifndef KCTUI_YAMLREAD_H
#define KCTUI_YAMLREAD_H

#include <stdbool.h>
#include <stddef.h>

#include <yaml.h>

struct yamlread {
	yaml_parser_t	 p;
	yaml_event_t	 ev;	/* the current event, valid while have */
	bool		 have;
	const char	*name;	/* for messages; not owned */
	char		*cause;	/* the first error, owned until taken */
};

/* One document's walk: called at the event after DOCUMENT-START. */
typedef int (*yamlread_doc_fn)(struct yamlread *, void *);

int	 yamlread_document(const char *, const char *, size_t, const char *,
	     yamlread_doc_fn, void *, char **);
int	 yamlread_next(struct yamlread *);
int	 yamlread_error(struct yamlread *, const char *, ...)
	     __attribute__((format(printf, 2, 3)));
int	 yamlread_error_at(struct yamlread *, size_t, const char *, ...)
	     __attribute__((format(printf, 3, 4)));
const char *yamlread_scalar(const struct yamlread *);
size_t	 yamlread_line(const struct yamlread *);
int	 yamlread_item(struct yamlread *, yaml_event_type_t, const char *);
int	 yamlread_key(struct yamlread *, const char *);
int	 yamlread_skip(struct yamlread *);

#endif
