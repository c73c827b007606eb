# SPDX-License-Identifier: GPL-2.0
#
# Quiet userspace and BPF builds, as kbuild's: unless V=1, $(Q) hides a
# command and $(call msg,WHAT,FILE) prints "  WHAT     FILE" for it.
# Included by the userspace and BPF Makefiles (kbuild has its own).

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif
