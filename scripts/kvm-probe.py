#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Exit 0 if KVM can run a guest here, 1 otherwise.

/dev/kvm may exist while nested virtualisation does not work (the vCPU never
makes progress), so run a 16-bit real-mode guest of four instructions that
writes one byte to an I/O port and check that KVM_RUN reports that exit.
The caller runs this under a short timeout.
"""
import ctypes
import fcntl
import mmap
import os
import struct
import sys

KVM_CREATE_VM = 0xAE01
KVM_GET_VCPU_MMAP_SIZE = 0xAE04
KVM_CREATE_VCPU = 0xAE41
KVM_SET_USER_MEMORY_REGION = 0x4020AE46
KVM_SET_REGS = 0x4090AE82
KVM_GET_SREGS = 0x8138AE83
KVM_SET_SREGS = 0x4138AE84
KVM_RUN = 0xAE80
KVM_EXIT_IO = 2

CODE = bytes([0xBA, 0xF8, 0x03,   # mov dx, 0x3f8
              0xB0, 0x41,         # mov al, 'A'
              0xEE,               # out dx, al
              0xF4])              # hlt


def main():
    try:
        kvm = os.open("/dev/kvm", os.O_RDWR | os.O_CLOEXEC)
        vm = fcntl.ioctl(kvm, KVM_CREATE_VM, 0)
        mem = mmap.mmap(-1, 0x4000)
        mem[0x1000:0x1000 + len(CODE)] = CODE
        addr = ctypes.addressof(ctypes.c_char.from_buffer(mem))
        region = struct.pack("IIQQQ", 0, 0, 0, 0x4000, addr)
        fcntl.ioctl(vm, KVM_SET_USER_MEMORY_REGION, region)
        vcpu = fcntl.ioctl(vm, KVM_CREATE_VCPU, 0)
        size = fcntl.ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0)
        run = mmap.mmap(vcpu, size, mmap.MAP_SHARED,
                        mmap.PROT_READ | mmap.PROT_WRITE)
        sregs = bytearray(0x138)
        fcntl.ioctl(vcpu, KVM_GET_SREGS, sregs)
        sregs[0:8] = struct.pack("Q", 0)        # cs.base
        sregs[12:14] = struct.pack("H", 0)      # cs.selector
        fcntl.ioctl(vcpu, KVM_SET_SREGS, bytes(sregs))
        regs = bytearray(0x90)
        regs[128:136] = struct.pack("Q", 0x1000)  # rip
        regs[136:144] = struct.pack("Q", 0x2)     # rflags
        fcntl.ioctl(vcpu, KVM_SET_REGS, bytes(regs))
        fcntl.ioctl(vcpu, KVM_RUN, 0)
        reason = struct.unpack_from("I", run, 8)[0]
    except OSError as e:
        print(f"kvm-probe: {e}", file=sys.stderr)
        return 1
    return 0 if reason == KVM_EXIT_IO else 1


if __name__ == "__main__":
    sys.exit(main())
