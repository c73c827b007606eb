/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer: objects, arrays, strings, unsigned
 * integers, other numbers and booleans, compact or pretty-printed. Each
 * top-level value ends with a newline, and is flushed: one writer writes
 * a stream of them (a command's each, -b's lines, monitor's events).
 */
#ifndef _LROADM_JSON_H
#define _LROADM_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json;

struct json *json_new(FILE *f, bool pretty);
/* Frees the writer; what it wrote is out already. */
void json_destroy(struct json *j);

/* key is the member name inside an object, NULL inside an array or at the
 * top level.
 */
void json_obj_open(struct json *j, const char *key);
void json_obj_close(struct json *j);
void json_arr_open(struct json *j, const char *key);
void json_arr_close(struct json *j);
void json_string(struct json *j, const char *key, const char *val);
void json_uint(struct json *j, const char *key, uint64_t val);
/* num: the text of a JSON number (a fraction, say), written as it is. */
void json_number(struct json *j, const char *key, const char *num);
void json_bool(struct json *j, const char *key, bool val);

#endif /* _LROADM_JSON_H */
