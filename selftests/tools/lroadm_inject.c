// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm_inject.so: faults for lroadm, LD_PRELOAD'd by selftests/control.sh.
 *
 *   LROADM_INJECT_NOMEM=1       every malloc(), calloc() and realloc() that
 *                               lroadm's own code calls fails; those its
 *                               libraries make (libnl, libc) do not
 *   LROADM_INJECT_SEND="N CMD"  CMD runs (system(3)) right before lroadm's
 *                               Nth netlink sendmsg(), counting from 1 and
 *                               the family lookups too
 *
 * Both are read at load and taken out of the environment, with LD_PRELOAD:
 * CMD (say, another lroadm) runs without them.
 *
 * Deterministic stand-ins for an allocation failing inside a netlink
 * callback, and for another process acting between two of lroadm's
 * requests.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);

/* lroadm's code: the executable segments of the main program */
#define MAX_TEXT 4
static struct {
	uintptr_t lo, hi;
} text[MAX_TEXT];
static int ntext;
static int nomem;
static long send_nth;		/* 0: none */
static char *send_cmd;

static int find_main(struct dl_phdr_info *info, size_t size, void *data)
{
	int i;

	(void)size;
	(void)data;
	/* The first object listed is the main program. */
	for (i = 0; i < info->dlpi_phnum && ntext < MAX_TEXT; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		text[ntext].lo = info->dlpi_addr + ph->p_vaddr;
		text[ntext].hi = text[ntext].lo + ph->p_memsz;
		ntext++;
	}
	return 1;
}

__attribute__((constructor)) static void inject_init(void)
{
	const char *v = getenv("LROADM_INJECT_NOMEM");
	char *end;

	dl_iterate_phdr(find_main, NULL);
	nomem = v && !strcmp(v, "1");
	v = getenv("LROADM_INJECT_SEND");
	if (v) {
		send_nth = strtol(v, &end, 10);
		if (*end == ' ')
			send_cmd = strdup(end + 1);
	}
	unsetenv("LROADM_INJECT_NOMEM");
	unsetenv("LROADM_INJECT_SEND");
	unsetenv("LD_PRELOAD");
}

static int from_lroadm(const void *caller)
{
	uintptr_t a = (uintptr_t)caller;
	int i;

	for (i = 0; i < ntext; i++)
		if (a >= text[i].lo && a < text[i].hi)
			return 1;
	return 0;
}

void *malloc(size_t size)
{
	if (nomem && from_lroadm(__builtin_return_address(0)))
		return NULL;
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	if (nomem && from_lroadm(__builtin_return_address(0)))
		return NULL;
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	if (nomem && from_lroadm(__builtin_return_address(0)))
		return NULL;
	return __libc_realloc(p, size);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	static long sent;
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (send_cmd && !getsockname(fd, (struct sockaddr *)&ss, &len) &&
	    ss.ss_family == AF_NETLINK && ++sent == send_nth &&
	    system(send_cmd) == -1)
		_exit(99);
	return syscall(SYS_sendmsg, fd, msg, flags);
}
