# SPDX-License-Identifier: GPL-2.0
# The kernel log lines that fail a run (sourced by run_guest.sh, soak.sh
# and the two-guest test): a bug, a warning, an oops, a leak, a sanitizer's
# or lockdep's report, a device that cannot be unregistered.
AH_KLOG_BAD='BUG:|WARNING:|Oops|refcount|leak|lockdep|circular locking|recursive locking|general protection|Call Trace|unregister_netdevice: waiting|KASAN|UBSAN|ODEBUG|ref_tracker'
