# SYNOPSIS
#   X_AC_OPTIONAL_LIB(NAME, DESCRIPTION, HEADER, LIBRARY, FUNCTION,
#                     [EXTRA-CPPFLAGS])
#   X_AC_OPTIONAL_PKG(NAME, DESCRIPTION, PKG-MODULES)
#
# DESCRIPTION
#   Three-state optional dependency, in the manner of MUNGE's
#   X_AC_CHECK_COND_LIB and IOR's --with-* switches, but checked:
#
#     --with-NAME[=check|yes|no|PATH]   (default: check)
#
#   check: build the feature if the dependency is found, skip it if not;
#   yes:   the dependency is required, configure fails when it is missing;
#   no:    do not look for it;
#   PATH:  like yes, with PATH/include and PATH/lib searched first.
#
#   X_AC_OPTIONAL_LIB probes a header and a library function (for packages
#   without a pkg-config file: Slurm, librados, libcephfs, libaio).
#   X_AC_OPTIONAL_PKG uses pkg-config.
#
#   Both set and AC_SUBST NAME_CPPFLAGS / NAME_CFLAGS and NAME_LIBS (never the
#   global LIBS), AC_DEFINE HAVE_NAME, AM_CONDITIONAL HAVE_NAME, and the shell
#   variable x_ac_have_<name> to yes or no for the feature summary.

AC_DEFUN([X_AC_OPTIONAL_LIB], [
  m4_pushdef([_UP], m4_translit([$1], [a-z-], [A-Z_]))
  m4_pushdef([_LO], m4_translit([$1], [A-Z-], [a-z_]))
  AC_ARG_WITH([$1],
    [AS_HELP_STRING([--with-$1@<:@=check|yes|no|PATH@:>@],
      [$2 (default: check)])],
    [], [with_[]_LO=check])
  x_ac_have_[]_LO=no
  _UP[]_CPPFLAGS="$6"
  _UP[]_LIBS=
  AS_CASE([$with_[]_LO],
    [no], [],
    [yes|check], [],
    [_UP[]_CPPFLAGS="$_UP[]_CPPFLAGS -I$with_[]_LO/include"
     x_ac_[]_LO[]_ldflags="-L$with_[]_LO/lib"])
  AS_IF([test "x$with_[]_LO" != xno], [
    x_ac_save_CPPFLAGS="$CPPFLAGS"
    x_ac_save_LDFLAGS="$LDFLAGS"
    CPPFLAGS="$CPPFLAGS $_UP[]_CPPFLAGS"
    LDFLAGS="$LDFLAGS $x_ac_[]_LO[]_ldflags"
    AS_UNSET([ac_cv_header_]m4_translit([$3], [/.-], [___]))
    AC_CHECK_HEADER([$3], [
      m4_ifval([$4], [
        AC_CHECK_LIB([$4], [$5], [
          x_ac_have_[]_LO=yes
          _UP[]_LIBS="$x_ac_[]_LO[]_ldflags -l$4"])],
        [x_ac_have_[]_LO=yes])])
    CPPFLAGS="$x_ac_save_CPPFLAGS"
    LDFLAGS="$x_ac_save_LDFLAGS"
    AS_IF([test "x$x_ac_have_[]_LO" = xno && test "x$with_[]_LO" != xcheck],
      [AC_MSG_FAILURE([--with-$1 was given, but $3 or lib$4 was not found])])
  ])
  AS_IF([test "x$x_ac_have_[]_LO" = xyes],
    [AC_DEFINE([HAVE_]_UP, [1], [Define if $2 is available])],
    [_UP[]_CPPFLAGS=])
  AC_SUBST(_UP[_CPPFLAGS])
  AC_SUBST(_UP[_LIBS])
  AM_CONDITIONAL([HAVE_]_UP, [test "x$x_ac_have_[]_LO" = xyes])
  m4_popdef([_UP])
  m4_popdef([_LO])
])

AC_DEFUN([X_AC_OPTIONAL_PKG], [
  m4_pushdef([_UP], m4_translit([$1], [a-z-], [A-Z_]))
  m4_pushdef([_LO], m4_translit([$1], [A-Z-], [a-z_]))
  AC_ARG_WITH([$1],
    [AS_HELP_STRING([--with-$1@<:@=check|yes|no@:>@],
      [$2 (default: check)])],
    [], [with_[]_LO=check])
  x_ac_have_[]_LO=no
  AS_CASE([$with_[]_LO],
    [no], [],
    [yes|check], [
      PKG_CHECK_MODULES(_UP, [$3], [x_ac_have_[]_LO=yes], [
        AS_IF([test "x$with_[]_LO" = xyes],
          [AC_MSG_FAILURE([--with-$1 was given, but pkg-config found no $3: $]_UP[_PKG_ERRORS])])])],
    [AC_MSG_FAILURE([--with-$1 takes check, yes or no, not "$with_[]_LO"])])
  AS_IF([test "x$x_ac_have_[]_LO" = xyes],
    [AC_DEFINE([HAVE_]_UP, [1], [Define if $2 is available])])
  AM_CONDITIONAL([HAVE_]_UP, [test "x$x_ac_have_[]_LO" = xyes])
  m4_popdef([_UP])
  m4_popdef([_LO])
])
