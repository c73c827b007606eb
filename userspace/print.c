// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm's one print path (print.h), over the JSON writer of json.c: the
 * writer, where -j asks for one, is the one lroadm's main() sets up.
 */
#include <stdarg.h>
#include <stdio.h>

#include "json.h"
#include "print.h"

static struct json *jw;

int print_start(bool json, bool pretty)
{
	if (!json)
		return 0;
	jw = json_new(stdout, pretty);
	return jw ? 0 : -1;
}

void print_end(void)
{
	json_destroy(jw);
	jw = NULL;
	fflush(stdout);
}

bool is_json_context(void)
{
	return jw;
}

/*
 * Whether a field of type t goes to JSON in this context; where it goes
 * to text instead, it is printed here: fmt with the value that follows.
 */
static bool json_out(enum output_type t, const char *fmt, ...)
{
	va_list ap;

	if (jw)
		return t & PRINT_JSON;
	if (t & PRINT_FP) {
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	return false;
}

void open_json_object(const char *key)
{
	if (jw)
		json_obj_open(jw, key);
}

void open_json_array(const char *key)
{
	if (jw)
		json_arr_open(jw, key);
}

void close_json_object(void)
{
	if (jw)
		json_obj_close(jw);
}

void close_json_array(void)
{
	if (jw)
		json_arr_close(jw);
}

/* print_NAME(t, key, fmt, val): as iproute2's _PRINT_FUNC() makes them */
#define PRINT_FUNC(name, type, json_fn)					\
void print_##name(enum output_type t, const char *key, const char *fmt,	\
		  type val)						\
{									\
	if (json_out(t, fmt, val))					\
		json_fn(jw, key, val);					\
}

PRINT_FUNC(string, const char *, json_string)
PRINT_FUNC(uint, unsigned int, json_uint)
PRINT_FUNC(u64, uint64_t, json_uint)
PRINT_FUNC(number, const char *, json_number)

#undef PRINT_FUNC

void print_bool(enum output_type t, const char *key, const char *fmt,
		bool val, const char *yes, const char *no)
{
	if (json_out(t, fmt, val ? yes : no))
		json_bool(jw, key, val);
}

void print_nl(void)
{
	json_out(PRINT_FP, "\n");
}
