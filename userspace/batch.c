// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm -b FILE: commands from a file, one a line, as ip -b runs its own:
 *
 *   # LRO on the uplinks, and on every container's veth
 *   set eth0 max_aggr 32
 *   auto add all-netns kind veth
 *
 * A line is a command and its arguments, as they come after "lroadm" and
 * its options, which apply to every line. Words are separated by blanks;
 * '...' and "..." keep blanks (and the other quote) in a word; a word
 * that starts with # starts a comment, to the end of the line. Empty lines
 * and comments are skipped; FILE "-" is stdin. The first line that fails
 * ends the run, its errors saying "(line N)"; with -force every line runs.
 * The exit status is the worst of the lines'.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lroadm.h"

/* The most words a line may have (ip's batch takes 512). */
#define BATCH_MAX_WORDS	256

unsigned int batch_line;

/*
 * The words of line, split in place (quotes taken out) into argv, max of
 * them at most. Returns their number, or -1 after an error.
 */
static int split_words(char *line, char **argv, int max)
{
	char *in = line, *out = line;
	char quote;
	int argc = 0;

	for (;;) {
		while (isspace((unsigned char)*in))
			in++;
		if (!*in || *in == '#')
			return argc;
		if (argc == max) {
			error("more than %d words", max);
			return -1;
		}
		argv[argc++] = out;
		for (quote = 0; *in && (quote || !isspace((unsigned char)*in)); in++) {
			if (quote && *in == quote)
				quote = 0;
			else if (!quote && (*in == '\'' || *in == '"'))
				quote = *in;
			else
				*out++ = *in;
		}
		if (quote) {
			error("a %c quote not closed", quote);
			return -1;
		}
		/* past the blank first: out may be where it is */
		if (*in)
			in++;
		*out++ = '\0';
	}
}

int batch_run(const char *file, bool force)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char *line = NULL, *argv[BATCH_MAX_WORDS];
	int argc, ret, worst = 0;
	size_t size = 0;
	ssize_t len;

	if (!f) {
		error("cannot open \"%s\": %s", file, strerror(errno));
		return EXIT_USAGE;
	}
	while ((len = getline(&line, &size, f)) >= 0) {
		batch_line++;
		/* A NUL would end the line early, and run what came before. */
		if (memchr(line, '\0', len)) {
			error("a NUL byte in the line");
			argc = -1;
		} else {
			argc = split_words(line, argv, BATCH_MAX_WORDS);
		}
		if (!argc)
			continue;
		ret = argc < 0 ? EXIT_USAGE : lroadm_run(argc, argv);
		/* Each command's output now: a pipe may be a monitor reading it. */
		fflush(stdout);
		if (ret > worst)
			worst = ret;
		if (ret && !force)
			break;
	}
	batch_line = 0;
	if (ferror(f)) {
		error("cannot read \"%s\": %s", file, strerror(errno));
		worst = worst > EXIT_USAGE ? worst : EXIT_USAGE;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return worst;
}
