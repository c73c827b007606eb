// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm: configure generic Large Receive Offload on a network device.
 */
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: lroadm [ OPTIONS ] COMMAND\n"
		"COMMAND := { help }\n"
		"OPTIONS := { -j[son] | -p[retty] }\n");
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "Error: unknown command \"%s\".\n", argv[1]);
	usage(stderr);
	return 1;
}
