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
#
# KERNELRELEASE=/KDIR= select the kernel tree to build against; V=1 is verbose.

BUILD := $(CURDIR)/build
export BUILD

all: kmod userspace bpf

deps:
	@scripts/deps.sh

kmod:
	@$(MAKE) --no-print-directory -C kmod OUTPUT=$(BUILD)/kmod

userspace:
	@$(MAKE) --no-print-directory -C userspace OUTPUT=$(BUILD)/userspace

bpf:
	@$(MAKE) --no-print-directory -C bpf OUTPUT=$(BUILD)/bpf

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

.PHONY: all deps deps-then-build kmod userspace bpf vm check demo clean
