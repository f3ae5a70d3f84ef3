# SYNOPSIS
#   X_AC_SANITIZE
#
# DESCRIPTION
#   --enable-sanitizer[=address,undefined]: build everything with the named
#   sanitizers (comma-separated list of address, undefined, leak, thread).
#   Adds -fsanitize=LIST -fno-omit-frame-pointer -fno-sanitize-recover=all to
#   SANITIZE_CFLAGS and SANITIZE_LDFLAGS.  The SPANK plugin is not built
#   sanitized: slurmd is not, and a sanitized DSO cannot load into it.

AC_DEFUN([X_AC_SANITIZE], [
  AC_ARG_ENABLE([sanitizer],
    [AS_HELP_STRING([--enable-sanitizer@<:@=address,undefined@:>@],
      [build with sanitizers (address, undefined, leak, thread)])],
    [], [enable_sanitizer=no])
  SANITIZE_CFLAGS=
  SANITIZE_LDFLAGS=
  AS_CASE([$enable_sanitizer],
    [no], [],
    [yes], [enable_sanitizer=address,undefined])
  AS_IF([test "x$enable_sanitizer" != xno], [
    x_ac_san_list=`echo "$enable_sanitizer" | tr ',' ' '`
    for x_ac_san in $x_ac_san_list; do
      AS_CASE([$x_ac_san],
        [address|undefined|leak|thread], [],
        [AC_MSG_FAILURE([--enable-sanitizer: unknown sanitizer "$x_ac_san" (accepted: address, undefined, leak, thread)])])
    done
    SANITIZE_CFLAGS="-fsanitize=$enable_sanitizer -fno-omit-frame-pointer -fno-sanitize-recover=all"
    SANITIZE_LDFLAGS="-fsanitize=$enable_sanitizer"
    x_ac_save_CFLAGS="$CFLAGS"
    x_ac_save_LDFLAGS="$LDFLAGS"
    CFLAGS="$CFLAGS $SANITIZE_CFLAGS"
    LDFLAGS="$LDFLAGS $SANITIZE_LDFLAGS"
    AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])], [],
      [AC_MSG_FAILURE([the compiler cannot build with -fsanitize=$enable_sanitizer])])
    CFLAGS="$x_ac_save_CFLAGS"
    LDFLAGS="$x_ac_save_LDFLAGS"
  ])
  AC_SUBST([SANITIZE_CFLAGS])
  AC_SUBST([SANITIZE_LDFLAGS])
  AM_CONDITIONAL([WITH_SANITIZER], [test "x$enable_sanitizer" != xno])
])
