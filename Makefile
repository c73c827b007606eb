# SPDX-License-Identifier: GPL-2.0
#
# lro: generic Large Receive Offload for Linux. This Makefile only delegates:
# each part builds itself into build/, and the scripts in scripts/ do setup
# and the guest runs.
#
#   make deps            install what the project needs (Debian 12, as root)
#   make                 build lro.ko, lroadm, the BPF programs and the test
#                        and benchmark modules
#   make check [T=name]  run the selftests in a QEMU guest
#   make demo            one TCP stream: no offload, GRO, LRO; a table, a picture
#   make bench           LRO against kernel GRO, no offload and the 2007 seed
#   make coverage [T=all] the debug suite (T=all: every test), then kmod/'s
#                        line and branch coverage
#   make vm CMD='...'    run a command in the guest
#   make generate        regenerate uapi/linux/lro.h, kmod/netlink-gen.[ch] and
#                        the lists of settings (and where documents list them)
#                        from Documentation/netlink/specs/lro.yaml
#   make debug-kernel    build the debug kernel (KASAN, lockdep, kmemleak)
#   make install         lro.ko, lroadm, its man page and bash completion
#   make uninstall       (DESTDIR=, PREFIX=/usr, KERNELRELEASE=)
#   make dkms-install    lro.ko through DKMS, rebuilt for each new kernel
#   make dkms-uninstall
#
# KERNELRELEASE=/KDIR= select the kernel tree to build against; V=1 is verbose.
# KERNEL=debug: build against the debug kernel into build/debug/, and boot it
# in the guest targets (make check KERNEL=debug).

BUILD := $(CURDIR)/build
export BUILD

ifeq ($(KERNEL),debug)
BUILD := $(CURDIR)/build/debug
KDIR := $(shell scripts/debug-kernel.sh --kdir 2>/dev/null)
# lro.ko with gcov counters: every debug run measures coverage.
LRO_COVERAGE := y
export KDIR KERNEL LRO_COVERAGE
endif

SUBMAKE := $(MAKE) --no-print-directory

# --- Building -------------------------------------------------------------
#
# lro.ko first: the BPF programs take their types from its BTF, lroadm
# embeds their skeletons, and the engine tests (selftests/engine/) and the
# micro-benchmark (bench/kmod/) are modules calling its driver API;
# selftests/tools/ holds the tests' userspace helpers and selftests/fuzz/
# the frame fuzzer selftests/fuzz.sh runs. The harness canary
# (selftests/canary/) is a module with planted bugs that only
# selftests/harness_canary.sh loads.

all: kmod userspace bpf canary selftests bench-build

kmod:
	@$(SUBMAKE) -C kmod OUTPUT=$(BUILD)/kmod

bpf: kmod
	@$(SUBMAKE) -C bpf OUTPUT=$(BUILD)/bpf

userspace: bpf
	@$(SUBMAKE) -C userspace OUTPUT=$(BUILD)/userspace

canary:
	@$(SUBMAKE) -C selftests/canary OUTPUT=$(BUILD)/canary

selftests: kmod
	@$(SUBMAKE) -C selftests/engine OUTPUT=$(BUILD)/selftests/engine
	@$(SUBMAKE) -C selftests/tools OUTPUT=$(BUILD)/selftests/tools
	@$(SUBMAKE) -C selftests/fuzz OUTPUT=$(BUILD)/selftests/fuzz

bench-build: kmod bpf
	@$(SUBMAKE) -C bench/kmod OUTPUT=$(BUILD)/bench/kmod \
		EXTRA_SYMBOLS=$(BUILD)/kmod/Module.symvers
	@$(SUBMAKE) -C bench OUTPUT=$(BUILD)/bench

ifeq ($(KERNEL),debug)
kmod canary bench-build: debug-kernel
endif

clean:
	rm -rf $(BUILD)

# --- Installing -------------------------------------------------------------
#
# lro.ko into /lib/modules/$(KERNELRELEASE)/updates/ (then depmod, so that
# modprobe and the genl family autoload find it), lroadm into
# $(PREFIX)/sbin, lroadm.8 and the bash completion under $(PREFIX)/share;
# DESTDIR stages it all (without depmod). uninstall removes exactly those
# files.

PREFIX ?= /usr
KERNELRELEASE ?= $(shell ls /lib/modules 2>/dev/null | grep '^6\.12\.' | sort -V | tail -n1)
INSTALL_FILES := \
	$(BUILD)/kmod/lro.ko:/lib/modules/$(KERNELRELEASE)/updates/lro.ko:644 \
	$(BUILD)/userspace/lroadm:$(PREFIX)/sbin/lroadm:755 \
	userspace/lroadm.8:$(PREFIX)/share/man/man8/lroadm.8:644 \
	userspace/lroadm.bash-completion:$(PREFIX)/share/bash-completion/completions/lroadm:644
# depmod, unless DESTDIR stages the files for a package (whose
# installation runs it on the target).
DEPMOD = if [ -z "$(DESTDIR)" ]; then echo "  DEPMOD   $(KERNELRELEASE)"; depmod $(KERNELRELEASE); \
	else echo "  (DESTDIR: run 'depmod $(KERNELRELEASE)' where it is installed)"; fi

install: kmod userspace
	@$(SUBMAKE) install-files

# What install copies, without building first (selftests/install.sh).
install-files:
	@set -e; for f in $(INSTALL_FILES); do \
		src=$${f%%:*}; dst=$${f#*:}; mode=$${dst#*:}; dst=$${dst%:*}; \
		echo "  INSTALL  $(DESTDIR)$$dst"; \
		install -D -m $$mode "$$src" "$(DESTDIR)$$dst"; \
	done
	@$(DEPMOD)

uninstall:
	@for f in $(INSTALL_FILES); do \
		dst=$${f#*:}; dst=$${dst%:*}; \
		[ ! -e "$(DESTDIR)$$dst" ] || echo "  RM       $(DESTDIR)$$dst"; \
		rm -f "$(DESTDIR)$$dst"; \
	done
	@rmdir "$(DESTDIR)/lib/modules/$(KERNELRELEASE)/updates" 2>/dev/null || true
	@$(DEPMOD)

# DKMS: the module's sources (what 'make kmod' needs) into
# /usr/src/lro-$(VERSION) with dkms.conf, then dkms add, build, install
# for KERNELRELEASE. The version is scripts/version.sh's, written into the
# copy's VERSION file (it has no git history).
VERSION_STRING = $(eval VERSION_STRING := $$(shell scripts/version.sh))$(VERSION_STRING)
DKMS_SRC = /usr/src/lro-$(VERSION_STRING)
DKMS_TREE := Makefile VERSION kmod uapi scripts/kmod.mk scripts/version.sh
# DKMS runs make in its copy: this make's variables (BUILD=... on the
# command line) must not reach it through MAKEFLAGS.
DKMS := env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD dkms

# Any lro DKMS registered before (another version: DKMS would compare the
# versions as strings, and refuse an "older" one) goes first; a module of
# make install refuses (DKMS would not replace one of the same version).
dkms-install: dkms-uninstall
	@if [ -e /lib/modules/$(KERNELRELEASE)/updates/lro.ko ]; then \
		echo "dkms-install: /lib/modules/$(KERNELRELEASE)/updates/lro.ko is there (make install): make uninstall first" >&2; \
		exit 1; fi
	@rm -rf "$(DKMS_SRC)"
	@mkdir -p "$(DKMS_SRC)/scripts"
	@for f in $(DKMS_TREE); do cp -a "$$f" "$(DKMS_SRC)/$$f"; done
	@echo "$(VERSION_STRING)" > "$(DKMS_SRC)/VERSION"
	@sed 's/@VERSION@/$(VERSION_STRING)/' dkms.conf > "$(DKMS_SRC)/dkms.conf"
	$(DKMS) add lro/$(VERSION_STRING)
	$(DKMS) build lro/$(VERSION_STRING) -k $(KERNELRELEASE)
	$(DKMS) install lro/$(VERSION_STRING) -k $(KERNELRELEASE)

# Every version of lro DKMS knows, and their sources.
dkms-uninstall:
	@for v in $$(dkms status lro 2>/dev/null | sed -n 's|^lro/\([^,]*\),.*|\1|p' | sort -u); do \
		echo "$(DKMS) remove lro/$$v --all"; $(DKMS) remove "lro/$$v" --all || exit 1; \
	done
	rm -rf /usr/src/lro-*

# --- Setup ----------------------------------------------------------------

deps:
	@scripts/deps.sh

# The debug kernel (scripts/debug-kernel.config), cached outside the checkout.
debug-kernel:
	@scripts/debug-kernel.sh

# The netlink uapi and the kernel's policies and operation table, from the
# YNL spec, with the kernel's own generator (scripts/ynl-regen.sh); the
# lists of settings with scripts/settings-gen.py.
generate:
	@scripts/ynl-regen.sh

# --- In the guest ---------------------------------------------------------
#
# Each sets up what it needs first, so it works on a fresh machine alone.

vm check demo bench: deps-then-build

deps-then-build:
	@$(SUBMAKE) deps
	@$(SUBMAKE) all

vm:
	@scripts/vmrun "$$CMD"

# First the generated files against the spec: that also extracts the
# kernel's YNL CLI into build/ynl/, which selftests/ynl.sh runs.
check:
	@scripts/ynl-regen.sh --check
	@scripts/check.sh $(T)

# The guest writes the picture into its result share, which is build/demo
# here (beside the guest's console log). VM_ICOUNT=1 gives it an
# instruction-counted clock, as make bench's stream guest has, so that a
# busy host does not move the figures (but see README). VM_ICOUNT and the
# DEMO_* sizes (scripts/demo.sh) are passed in.
demo:
	@VM_OUT=$(CURDIR)/build/demo \
		VM_ENV_PASS="$$VM_ENV_PASS VM_ICOUNT DEMO_MB DEMO_RUNS DEMO_CFGS DEMO_PACE_MB DEMO_PACE_MBIT DEMO_HOLD_US" \
		scripts/vmrun scripts/demo.sh /run/vm $(CURDIR)/build/demo

# The debug suite (or T=...), then the whole coverage report its end wrote
# (scripts/check.sh runs scripts/coverage.py): lines and branches of kmod/
# per file, functions never entered, what each test alone executes.
coverage:
	@$(SUBMAKE) check KERNEL=debug T="$(T)"; rc=$$?; \
		cat build/coverage/report.txt; exit $$rc

# Benchmarks (bench/, Documentation/bench.md).
bench:
	@bench/run.sh

.PHONY: all kmod bpf userspace canary selftests bench-build clean deps \
	debug-kernel generate deps-then-build vm check demo bench coverage install \
	install-files uninstall dkms-install dkms-uninstall
