/* SPDX-License-Identifier: GPL-2.0 */
/*
 * yamlread.c - the YAML event reader the theme and profile loaders share
 * (see yamlread.h). It keeps the first error only: a loader that fails
 * deep inside a value returns -1 up its calls, and the message names the
 * place where the problem was seen, not where the unwinding ended.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "yamlread.h"

/* Set the error at the current event (the first one wins); -1. */
int
yamlread_error(struct yamlread *yr, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	if (yr->cause != NULL)
		return -1;
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	yr->cause = xasprintf("%s:%zu:%zu: %s", yr->name,
	    yr->ev.start_mark.line + 1, yr->ev.start_mark.column + 1, msg);
	free(msg);
	return -1;
}

/* The same at a saved line (an entry whose error shows at its end). */
int
yamlread_error_at(struct yamlread *yr, size_t line, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	if (yr->cause != NULL)
		return -1;
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	yr->cause = xasprintf("%s:%zu: %s", yr->name, line, msg);
	free(msg);
	return -1;
}

/* The next event into yr->ev; a YAML syntax error names its place. */
int
yamlread_next(struct yamlread *yr)
{
	if (yr->have)
		yaml_event_delete(&yr->ev);
	yr->have = false;
	if (!yaml_parser_parse(&yr->p, &yr->ev)) {
		if (yr->cause == NULL)
			yr->cause = xasprintf("%s:%zu:%zu: %s", yr->name,
			    yr->p.problem_mark.line + 1,
			    yr->p.problem_mark.column + 1,
			    yr->p.problem != NULL ? yr->p.problem :
			    "YAML syntax error");
		return -1;
	}
	yr->have = true;
	return 0;
}

/* The current event's scalar (NUL-terminated by libyaml). */
const char *
yamlread_scalar(const struct yamlread *yr)
{
	return (const char *)yr->ev.data.scalar.value;
}

/* The line (1-based) of the current event. */
size_t
yamlread_line(const struct yamlread *yr)
{
	return yr->ev.start_mark.line + 1;
}

/* The next scalar of a collection ending at end: 1 with it in yr->ev,
 * 0 at the end, -1 on an error (the message: prefix then what). */
static int
yamlread_scalar_of(struct yamlread *yr, yaml_event_type_t end,
    const char *prefix, const char *what)
{
	if (yamlread_next(yr) != 0)
		return -1;
	if (yr->ev.type == end)
		return 0;
	if (yr->ev.type != YAML_SCALAR_EVENT)
		return yamlread_error(yr, "%s%s", prefix, what);
	return 1;
}

/* The next item of a sequence or mapping (end: its end event): 1 with a
 * scalar in yr->ev, 0 at the end, -1 on an error (what: the whole
 * message when the item is not a scalar). */
int
yamlread_item(struct yamlread *yr, yaml_event_type_t end, const char *what)
{
	return yamlread_scalar_of(yr, end, "", what);
}

/* The next key of a mapping: 1 with the key in yr->ev, 0 at the
 * mapping's end, -1 on an error ("expected WHAT"). */
int
yamlread_key(struct yamlread *yr, const char *what)
{
	return yamlread_scalar_of(yr, YAML_MAPPING_END_EVENT, "expected ",
	    what);
}

/* Skip a whole value (scalar, sequence or mapping) starting at yr->ev. */
int
yamlread_skip(struct yamlread *yr)
{
	int depth = 0;

	do {
		switch (yr->ev.type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			depth++;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_STREAM_END_EVENT:
			return yamlread_error(yr, "unexpected end");
		default:
			break;
		}
		if (depth > 0 && yamlread_next(yr) != 0)
			return -1;
	} while (depth > 0);
	return 0;
}

/*
 * Read buf (len bytes, named name in messages) as one YAML document of
 * a kind (what: "theme", "profile": the word of "empty theme", "not a
 * theme"): doc walks it from the event after the document's start and
 * must consume its top value. 0, or -1 with *cause (name:line:col).
 */
int
yamlread_document(const char *name, const char *buf, size_t len,
    const char *what, yamlread_doc_fn doc, void *arg, char **cause)
{
	struct yamlread	yr;
	int		rc = -1;

	memset(&yr, 0, sizeof yr);
	yr.name = name;
	if (!yaml_parser_initialize(&yr.p)) {
		*cause = xasprintf("%s: cannot initialise the YAML parser",
		    name);
		return -1;
	}
	yaml_parser_set_input_string(&yr.p, (const unsigned char *)buf, len);
	if (yamlread_next(&yr) != 0 || yr.ev.type != YAML_STREAM_START_EVENT)
		goto out;
	if (yamlread_next(&yr) != 0)
		goto out;
	if (yr.ev.type != YAML_DOCUMENT_START_EVENT) {
		yamlread_error(&yr, "empty %s", what);
		goto out;
	}
	if (yamlread_next(&yr) != 0 || doc(&yr, arg) != 0)
		goto out;
	if (yamlread_next(&yr) != 0 || yr.ev.type != YAML_DOCUMENT_END_EVENT)
		goto out;
	if (yamlread_next(&yr) != 0)
		goto out;
	if (yr.ev.type != YAML_STREAM_END_EVENT) {
		yamlread_error(&yr, "one document only");
		goto out;
	}
	rc = 0;
out:
	if (rc != 0) {
		if (yr.cause == NULL)
			yamlread_error(&yr, "not a %s", what);
		*cause = yr.cause;
	}
	if (yr.have)
		yaml_event_delete(&yr.ev);
	yaml_parser_delete(&yr.p);
	return rc;
}
