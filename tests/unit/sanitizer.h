/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sanitizer: UNDER_ASAN is defined in an AddressSanitizer build (gcc or
 * clang), where tests that bound a child's address space are skipped: ASan
 * reserves its shadow and allocator regions up front.
 */
#ifndef IOSTRATA_TEST_SANITIZER_H
#define IOSTRATA_TEST_SANITIZER_H

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#endif
