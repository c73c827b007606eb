// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm: what its BPF commands (descs, policy) share: checking that the
 * kernel and lro.ko can run them, keeping libbpf's messages for when
 * loading fails, and saying why it failed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "lroadm.h"

/* Capability numbers (linux/capability.h), without libcap. */
#define CAP_NET_ADMIN_NR	12
#define CAP_SYS_ADMIN_NR	21
#define CAP_BPF_NR		39

/* libbpf's messages, shown only when loading fails for an unknown reason. */
static char bpf_log[16384];
static size_t bpf_log_len;

static int bpf_log_fn(enum libbpf_print_level level, const char *fmt,
		      va_list ap)
{
	int n;

	if (level == LIBBPF_DEBUG || bpf_log_len >= sizeof(bpf_log) - 1)
		return 0;
	n = vsnprintf(bpf_log + bpf_log_len, sizeof(bpf_log) - bpf_log_len,
		      fmt, ap);
	if (n > 0)
		bpf_log_len += (size_t)n;
	if (bpf_log_len >= sizeof(bpf_log))
		bpf_log_len = sizeof(bpf_log) - 1;
	return 0;
}

int bpf_preflight(const char *what)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK) && errno == ENOENT) {
		error("the kernel has no BTF (CONFIG_DEBUG_INFO_BTF): %s needs it", what);
		return -1;
	}
	if (access("/sys/module/lro", F_OK)) {
		error("the lro module is not loaded (modprobe lro)");
		return -1;
	}
	if (access("/sys/kernel/btf/lro", F_OK)) {
		error("lro.ko has no BTF (built without CONFIG_DEBUG_INFO_BTF_MODULES or pahole): %s needs it",
		      what);
		return -1;
	}
	libbpf_set_print(bpf_log_fn);
	return 0;
}

/* Whether this process has capability @cap (CapEff of /proc/self/status). */
static bool has_cap(int cap)
{
	unsigned long long eff = ~0ULL;
	char line[256];
	FILE *f;

	f = fopen("/proc/self/status", "r");
	if (!f)
		return true;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return eff >> cap & 1;
}

void bpf_fail(const char *what, int err)
{
	/* EACCES is also the verifier refusing the program (an lro.ko
	 * without these kfuncs, say): then libbpf's log tells more.
	 */
	if (err == EPERM ||
	    (err == EACCES && !has_cap(CAP_BPF_NR) && !has_cap(CAP_SYS_ADMIN_NR))) {
		/* libbpf looks lro.ko's BTF up by ID to resolve the kfuncs:
		 * BPF_BTF_GET_NEXT_ID and BPF_BTF_GET_FD_BY_ID want that.
		 */
		if (has_cap(CAP_BPF_NR) && has_cap(CAP_NET_ADMIN_NR) &&
		    !has_cap(CAP_SYS_ADMIN_NR))
			error("permission denied (CAP_SYS_ADMIN needed to find lro.ko's BTF)");
		else
			error("permission denied (CAP_BPF and CAP_NET_ADMIN needed)");
		return;
	}
	if (err == ENOSYS) {
		error("the kernel has no BPF support (CONFIG_BPF_SYSCALL)");
		return;
	}
	if (bpf_log_len)
		fputs(bpf_log, stderr);
	error("%s: %s", what, strerror(err));
}

void bpf_log_start(void)
{
	bpf_log_len = 0;
	bpf_log[0] = '\0';
}
