// SPDX-License-Identifier: GPL-2.0
/*
 * A small streaming JSON writer (RFC 8259 output): the caller opens and
 * closes objects and arrays and emits members in order; the writer adds
 * separators, escapes strings and, when pretty, indents by nesting depth.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "json.h"

#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;
	bool pretty;
	int depth;
	bool empty[JSON_MAX_DEPTH];	/* nothing written yet at this depth */
};

struct json *json_new(FILE *f, bool pretty)
{
	struct json *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->f = f;
	j->pretty = pretty;
	j->empty[0] = true;
	return j;
}

void json_destroy(struct json *j)
{
	free(j);
}

static void json_indent(struct json *j)
{
	int i;

	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("    ", j->f);
}

static void json_quote(struct json *j, const char *s)
{
	/* What a character stands for after a backslash, if it needs one */
	static const char esc[128] = {
		['"'] = '"', ['\\'] = '\\', ['\n'] = 'n', ['\t'] = 't',
	};
	const unsigned char *p;

	fputc('"', j->f);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p < sizeof(esc) && esc[*p])
			fprintf(j->f, "\\%c", esc[*p]);
		else if (*p < 0x20)
			fprintf(j->f, "\\u%04x", *p);
		else
			fputc(*p, j->f);
	}
	fputc('"', j->f);
}

/* Separator, indentation and member name before a value. */
static void json_member(struct json *j, const char *key)
{
	if (!j->empty[j->depth])
		fputc(',', j->f);
	j->empty[j->depth] = false;
	if (j->depth > 0)
		json_indent(j);
	if (key) {
		json_quote(j, key);
		fputs(j->pretty ? ": " : ":", j->f);
	}
}

static void json_open(struct json *j, const char *key, char c)
{
	json_member(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->empty[j->depth] = true;
}

static void json_close(struct json *j, char c)
{
	bool empty = j->empty[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		json_indent(j);
	fputc(c, j->f);
	if (j->depth)
		return;
	/* The end of a top-level value: a line of its own, out now. */
	fputc('\n', j->f);
	fflush(j->f);
	j->empty[0] = true;
}

void json_obj_open(struct json *j, const char *key)
{
	json_open(j, key, '{');
}

void json_obj_close(struct json *j)
{
	json_close(j, '}');
}

void json_arr_open(struct json *j, const char *key)
{
	json_open(j, key, '[');
}

void json_arr_close(struct json *j)
{
	json_close(j, ']');
}

void json_string(struct json *j, const char *key, const char *val)
{
	json_member(j, key);
	json_quote(j, val);
}

void json_uint(struct json *j, const char *key, uint64_t val)
{
	json_member(j, key);
	fprintf(j->f, "%" PRIu64, val);
}

void json_number(struct json *j, const char *key, const char *num)
{
	json_member(j, key);
	fputs(num, j->f);
}

void json_bool(struct json *j, const char *key, bool val)
{
	json_member(j, key);
	fputs(val ? "true" : "false", j->f);
}
