# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree module build shared by kmod/ and the test modules under
# selftests/. Kbuild writes its objects next to the sources it is given, so
# the sources are symlinked into $(OUTPUT) and built there: the source tree
# stays clean. The including Makefile sets OUTPUT and may set SOURCES and
# EXTRA_SYMBOLS (Module.symvers files of modules it links against).

KERNELRELEASE ?= $(shell ls /lib/modules 2>/dev/null | grep '^6\.12\.' | sort -V | tail -n1)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build
SRC := $(CURDIR)
# The checkout's top: Kbuild files use it to reach uapi/ and kmod/include/.
LRO_TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
SOURCES ?= Kbuild $(wildcard *.c *.h)
# lro.ko's MODULE_VERSION (scripts/version.sh).
LRO_VERSION ?= $(shell $(LRO_TOP)/scripts/version.sh)

# Another kernel tree, or the same tree configured anew, rebuilds
# everything: kbuild compares command lines, and those name the tree only
# by relative paths, so a rebuilt debug kernel (same release string)
# would otherwise load modules built for the one before.
KTREE := $(KDIR) $(shell md5sum < $(KDIR)/include/generated/autoconf.h 2>/dev/null | cut -c1-16)
ifneq ($(OUTPUT),)
ifneq ($(KTREE),$(shell cat $(OUTPUT)/.ktree 2>/dev/null))
$(shell rm -rf $(OUTPUT) && mkdir -p $(OUTPUT) && echo '$(KTREE)' > $(OUTPUT)/.ktree)
endif
endif

ifneq ($(V),1)
Q := @
endif

all: module

$(OUTPUT)/.linked: $(addprefix $(SRC)/,$(SOURCES)) Makefile
	@mkdir -p $(OUTPUT)
	@for f in $(SOURCES); do ln -sfn $(SRC)/$$f $(OUTPUT)/$$f; done
	@touch $@

module: $(OUTPUT)/.linked
	@test -d $(KDIR) || { echo "$(notdir $(SRC)): no kernel build tree at $(KDIR) (run 'make deps')" >&2; exit 1; }
	$(Q)$(MAKE) --no-print-directory -C $(KDIR) M=$(OUTPUT) W=1 LRO_TOP=$(LRO_TOP) \
		LRO_VERSION="$(LRO_VERSION)" $(if $(LRO_COVERAGE),LRO_COVERAGE=$(LRO_COVERAGE)) \
		$(if $(EXTRA_SYMBOLS),KBUILD_EXTRA_SYMBOLS="$(EXTRA_SYMBOLS)") modules

clean:
	rm -rf $(OUTPUT)

.PHONY: all module clean
