#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad requests, sent with a raw generic netlink client (not ahctl), get the
# right errno and an extack message and change nothing.
#
#        A(1) eth0 ---- ahhub ---- B(2)
#        A(1) br0 <- vport (a bridge port: its rx_handler is taken)
source "$(dirname "$0")/../lib.sh"

load_module macfilter || exit 1
hub_setup 2 || exit 1
nsexec 1 ip link add br0 type bridge
nsexec 1 ip link add vport type veth peer name vpeer
nsexec 1 ip link set vport master br0
nsexec 1 "$PYTHON" "$AH_ROOT/selftests/macfilter/nl_errors.py" eth0 vport
