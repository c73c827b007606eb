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
#   make demo            LRO on a veth pair, a TCP stream, what LRO did
#   make bench           LRO against kernel GRO, no offload and the 2007 seed
#   make vm CMD='...'    run a command in the guest
#   make generate        regenerate uapi/linux/lro.h and kmod/netlink-gen.[ch]
#                        from Documentation/netlink/specs/lro.yaml
#   make debug-kernel    build the debug kernel (KASAN, lockdep, kmemleak)
#
# KERNELRELEASE=/KDIR= select the kernel tree to build against; V=1 is verbose.
# KERNEL=debug: build against the debug kernel into build/debug/, and boot it
# in the guest targets (make check KERNEL=debug).

BUILD := $(CURDIR)/build
export BUILD

ifeq ($(KERNEL),debug)
BUILD := $(CURDIR)/build/debug
KDIR := $(shell scripts/debug-kernel.sh --kdir 2>/dev/null)
export KDIR KERNEL
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

# --- Setup ----------------------------------------------------------------

deps:
	@scripts/deps.sh

# The debug kernel (scripts/debug-kernel.config), cached outside the checkout.
debug-kernel:
	@scripts/debug-kernel.sh

# The netlink uapi and the kernel's policies and operation table, from the
# YNL spec, with the kernel's own generator (scripts/ynl-regen.sh).
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

check:
	@scripts/check.sh $(T)

demo:
	@scripts/vmrun scripts/demo.sh

# Benchmarks (bench/, Documentation/bench.md).
bench:
	@bench/run.sh

.PHONY: all kmod bpf userspace canary selftests bench-build clean deps \
	debug-kernel generate deps-then-build vm check demo bench
