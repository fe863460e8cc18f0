/* SPDX-License-Identifier: GPL-2.0 */
/*
 * yamlwrite.h - the event writer under kctui's YAML outputs (the export
 * report, verify's measured table), as yamlread.h is under the readers:
 * libyaml's emitter fed scalars and block collections, into a strbuf.
 * Each returns libyaml's word: 1 done, 0 failed (the emitter's error).
 */
#ifndef KCTUI_YAMLWRITE_H
#define KCTUI_YAMLWRITE_H

#include <stdbool.h>

#include <yaml.h>

/* libyaml's output handler appending to a struct strbuf (arg). */
int	yamlwrite_strbuf(void *, unsigned char *, size_t);
/* A scalar: quoted as its text needs, or plain (numbers, null). */
int	yamlwrite_str(yaml_emitter_t *, const char *);
int	yamlwrite_plain(yaml_emitter_t *, const char *);
/* A key and its text, a key and its number. */
int	yamlwrite_kv(yaml_emitter_t *, const char *, const char *);
int	yamlwrite_kn(yaml_emitter_t *, const char *, unsigned long long);
/* A block mapping or sequence begins (start) or ends. */
int	yamlwrite_map(yaml_emitter_t *, bool);
int	yamlwrite_seq(yaml_emitter_t *, bool);

#endif
