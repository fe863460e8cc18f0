/* SPDX-License-Identifier: GPL-2.0 */
/*
 * yamlwrite.c - the YAML event writer the report and verify's measured
 * table share (see yamlwrite.h).
 */
#include <stdio.h>
#include <string.h>

#include "util.h"
#include "yamlwrite.h"

/* libyaml's output into a strbuf. */
int
yamlwrite_strbuf(void *arg, unsigned char *buf, size_t len)
{
	strbuf_add(arg, (const char *)buf, len);
	return 1;
}

/* A scalar event of style st. */
static int
yamlwrite_scalar(yaml_emitter_t *e, const char *s, yaml_scalar_style_t st)
{
	yaml_event_t ev;

	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s,
	    (int)strlen(s), 1, 1, st);
	return yaml_emitter_emit(e, &ev);
}

int
yamlwrite_str(yaml_emitter_t *e, const char *s)
{
	return yamlwrite_scalar(e, s, YAML_ANY_SCALAR_STYLE);
}

int
yamlwrite_plain(yaml_emitter_t *e, const char *s)
{
	return yamlwrite_scalar(e, s, YAML_PLAIN_SCALAR_STYLE);
}

int
yamlwrite_kv(yaml_emitter_t *e, const char *k, const char *v)
{
	return yamlwrite_str(e, k) && yamlwrite_str(e, v);
}

int
yamlwrite_kn(yaml_emitter_t *e, const char *k, unsigned long long n)
{
	char buf[32];	/* a 64-bit number's digits */

	snprintf(buf, sizeof buf, "%llu", n);
	return yamlwrite_str(e, k) && yamlwrite_str(e, buf);
}

int
yamlwrite_map(yaml_emitter_t *e, bool start)
{
	yaml_event_t ev;

	if (start)
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
		    YAML_BLOCK_MAPPING_STYLE);
	else
		yaml_mapping_end_event_initialize(&ev);
	return yaml_emitter_emit(e, &ev);
}

int
yamlwrite_seq(yaml_emitter_t *e, bool start)
{
	yaml_event_t ev;

	if (start)
		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
		    YAML_BLOCK_SEQUENCE_STYLE);
	else
		yaml_sequence_end_event_initialize(&ev);
	return yaml_emitter_emit(e, &ev);
}
