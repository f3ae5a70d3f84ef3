# SYNOPSIS
#   X_AC_FUZZ
#
# DESCRIPTION
#   --enable-fuzzing: build the libFuzzer harnesses of tests/fuzz/ with
#   `make fuzz` (clang only: configure with CC=clang, together with
#   --enable-sanitizer=address,undefined, which it requires).  Adds
#   -fsanitize=fuzzer-no-link to SANITIZE_CFLAGS so the code under test
#   carries coverage; the harnesses link with FUZZ_LDFLAGS
#   (-fsanitize=fuzzer, libFuzzer's main).  Call after X_AC_SANITIZE.

AC_DEFUN([X_AC_FUZZ], [
  AC_ARG_ENABLE([fuzzing],
    [AS_HELP_STRING([--enable-fuzzing],
      [build the libFuzzer harnesses (make fuzz; needs CC=clang)])],
    [], [enable_fuzzing=no])
  FUZZ_LDFLAGS=
  AS_IF([test "x$enable_fuzzing" = xyes], [
    AS_IF([test "x$enable_sanitizer" = xno],
      [AC_MSG_FAILURE([--enable-fuzzing needs --enable-sanitizer=address,undefined (a harness without sanitizers finds only crashes)])])
    x_ac_save_CFLAGS="$CFLAGS"
    x_ac_save_LDFLAGS="$LDFLAGS"
    CFLAGS="$CFLAGS $SANITIZE_CFLAGS -fsanitize=fuzzer"
    LDFLAGS="$LDFLAGS $SANITIZE_LDFLAGS"
    AC_LINK_IFELSE([AC_LANG_SOURCE([[
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	(void)d;
	(void)n;
	return 0;
}
]])], [],
      [AC_MSG_FAILURE([--enable-fuzzing: $CC cannot link with -fsanitize=fuzzer (use CC=clang; Debian: the libclang-rt-dev package holds libFuzzer)])])
    CFLAGS="$x_ac_save_CFLAGS"
    LDFLAGS="$x_ac_save_LDFLAGS"
    SANITIZE_CFLAGS="$SANITIZE_CFLAGS -fsanitize=fuzzer-no-link"
    FUZZ_LDFLAGS="-fsanitize=fuzzer"
  ])
  AC_SUBST([FUZZ_LDFLAGS])
  AM_CONDITIONAL([ENABLE_FUZZING], [test "x$enable_fuzzing" = xyes])
])
