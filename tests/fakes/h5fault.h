/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5fault: a unit-test stand-in for a libhdf5 that crashes or loops on a
 * file.  The tests' isolated-reader checks need one input that kills the
 * library and one that never returns, on every platform: the real inputs
 * in tests/fuzz/corpus/h5run/regress-gheap-* do so on HDF5 1.10 (Debian 12)
 * and are read cleanly by HDF5 1.14 (Debian 13), which fixed them.
 *
 * A file ending in IOS_H5FAULT_CRASH makes H5Fopen die of SIGSEGV; one
 * ending in IOS_H5FAULT_HANG makes it spin on the CPU for ever.  HDF5
 * ignores bytes past the file's end-of-allocation, so the marker goes on a
 * valid results file.  Any other file opens normally.  Linked into
 * test_h5iso, and built as tests/fakes/.libs/libh5fault.so for LD_PRELOAD
 * under the real iostrata-report (test_report_isolated.sh).
 */
#ifndef IOSTRATA_H5FAULT_H
#define IOSTRATA_H5FAULT_H

#define IOS_H5FAULT_CRASH "\nIOSTRATA-H5FAULT:crash\n"
#define IOS_H5FAULT_HANG "\nIOSTRATA-H5FAULT:hang\n"

#endif
