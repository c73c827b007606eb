/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lroadm's one print path, as iproute2's json_print.h: each field is
 * printed by one call, which writes it as text (with a printf format) or
 * as a JSON member, whichever lroadm was asked for (-j). The JSON writer
 * is set up once, by print_start(), and torn down once, by print_end().
 *
 *   PRINT_FP    text only
 *   PRINT_JSON  JSON only
 *   PRINT_ANY   either: text with fmt, JSON as the member key (the value
 *               alone inside an array, where key is NULL)
 */
#ifndef _LROADM_PRINT_H
#define _LROADM_PRINT_H

#include <stdbool.h>
#include <stdint.h>

enum output_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = PRINT_FP | PRINT_JSON,
};

/* The writer for -j (pretty: -p), or none: text. 0, or -1 (no memory). */
int print_start(bool json, bool pretty);
void print_end(void);
bool is_json_context(void);

/* An object or an array: JSON only. At the top level (key NULL) a JSON
 * value ends with its closing, on a line of its own, and is flushed.
 */
void open_json_object(const char *key);
void close_json_object(void);
void open_json_array(const char *key);
void close_json_array(void);

void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *val);
void print_uint(enum output_type t, const char *key, const char *fmt,
		unsigned int val);
void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t val);
/* Text: fmt with yes or no as its string. */
void print_bool(enum output_type t, const char *key, const char *fmt,
		bool val, const char *yes, const char *no);
/* num: the text of a number (a fraction, say), as it is. */
void print_number(enum output_type t, const char *key, const char *fmt,
		  const char *num);
/* Text: a newline. */
void print_nl(void);

#endif /* _LROADM_PRINT_H */
