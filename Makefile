# SPDX-License-Identifier: GPL-2.0
#
# lro: generic Large Receive Offload for Linux. This Makefile only delegates:
# each part builds itself (kmod/, userspace/, bpf/) into build/, and the
# scripts in scripts/ do setup and the guest runs.
#
#   make deps            install what the project needs (Debian 12, as root)
#   make                 build lro.ko, lroadm and the BPF programs
#   make check [T=name]  run the selftests in a QEMU guest
#   make demo            LRO on a veth pair, a TCP stream, what LRO did
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

all: kmod userspace bpf

deps:
	@scripts/deps.sh

kmod:
	@$(MAKE) --no-print-directory -C kmod OUTPUT=$(BUILD)/kmod

userspace:
	@$(MAKE) --no-print-directory -C userspace OUTPUT=$(BUILD)/userspace

bpf:
	@$(MAKE) --no-print-directory -C bpf OUTPUT=$(BUILD)/bpf

# The BPF programs take their types from lro.ko's BTF; lroadm embeds their
# skeletons.
bpf: kmod
userspace: bpf

# The guest targets set up what they need first, so each works on a fresh
# machine by itself.
vm check demo: deps-then-build

deps-then-build:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory all

vm:
	@scripts/vmrun "$$CMD"

check:
	@scripts/check.sh $(T)

demo:
	@scripts/vmrun scripts/demo.sh

clean:
	rm -rf $(BUILD)

# The harness canary (selftests/canary/): a module with planted bugs that
# only the canary selftest loads, built against the same kernel as lro.ko.
all: canary
canary:
	@$(MAKE) --no-print-directory -C selftests/canary OUTPUT=$(BUILD)/canary

# The debug kernel (scripts/debug-kernel.config), cached outside the checkout.
debug-kernel:
	@scripts/debug-kernel.sh

ifeq ($(KERNEL),debug)
kmod canary bpf: debug-kernel
endif

.PHONY: all deps deps-then-build kmod userspace bpf vm check demo clean
.PHONY: canary debug-kernel

# The netlink uapi and the kernel's policies and operation table, from the
# YNL spec, with the kernel's own generator (scripts/ynl-regen.sh).
generate:
	@scripts/ynl-regen.sh

.PHONY: generate

# The engine's tests (selftests/engine/, loaded by selftests/engine.sh): a
# module that calls lro.ko's driver API, so it is built after lro.ko.
all: selftests
selftests: kmod
	@$(MAKE) --no-print-directory -C selftests/engine OUTPUT=$(BUILD)/selftests/engine

.PHONY: selftests

# Benchmarks (bench/, Documentation/bench.md): the micro-benchmark module
# (loaded by selftests/bench_smoke.sh, so built with everything) and the
# TCP end points; 'make bench' boots the guests and runs them.
all: bench-build
bench-build: kmod
	@$(MAKE) --no-print-directory -C bench/kmod OUTPUT=$(BUILD)/bench/kmod \
		EXTRA_SYMBOLS=$(BUILD)/kmod/Module.symvers
	@$(MAKE) --no-print-directory -C bench OUTPUT=$(BUILD)/bench

bench: deps-then-build
	@bench/run.sh

ifeq ($(KERNEL),debug)
bench-build: debug-kernel
endif

.PHONY: bench bench-build
