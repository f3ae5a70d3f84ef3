# SYNOPSIS
#   X_AC_WARNINGS
#
# DESCRIPTION
#   Sets WARNING_CFLAGS (always -Wall -Wextra -Wformat=2 -Wshadow) and adds
#   -Werror when --enable-werror is given (CI turns it on).  Also adds the
#   hardening flags the project builds with (-fstack-protector-strong,
#   -D_FORTIFY_SOURCE=2 when optimising, -Wl,-z,relro,-z,now) as
#   HARDEN_CFLAGS / HARDEN_LDFLAGS.

AC_DEFUN([X_AC_WARNINGS], [
  AC_ARG_ENABLE([werror],
    [AS_HELP_STRING([--enable-werror], [treat compiler warnings as errors])],
    [], [enable_werror=no])
  WARNING_CFLAGS="-Wall -Wextra -Wformat=2 -Wshadow"
  AS_IF([test "x$enable_werror" = xyes],
    [WARNING_CFLAGS="$WARNING_CFLAGS -Werror"])
  AC_SUBST([WARNING_CFLAGS])
  HARDEN_CFLAGS="-fstack-protector-strong"
  AS_CASE([" $CFLAGS "], [*" -O0 "*], [],
    [*-O*], [HARDEN_CFLAGS="$HARDEN_CFLAGS -D_FORTIFY_SOURCE=2"])
  HARDEN_LDFLAGS="-Wl,-z,relro,-z,now"
  AC_SUBST([HARDEN_CFLAGS])
  AC_SUBST([HARDEN_LDFLAGS])
])
