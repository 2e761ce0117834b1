#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The installed test kernels: Debian 12's 6.1 and bookworm-backports' 6.12,
# the newest of each that has both its image and its headers.
for series in 6.1 6.12; do
	for img in /boot/vmlinuz-"$series".*; do
		[[ -e $img ]] || continue
		v=${img#/boot/vmlinuz-}
		[[ -d /lib/modules/$v/build && -d /lib/modules/$v/kernel ]] &&
			echo "$v"
	done | sort -V | tail -1
done
