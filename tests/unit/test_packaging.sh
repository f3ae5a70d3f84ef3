#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_packaging.sh: the three package descriptions against the build system
# they package, without building a package (tests/packaging/run builds the
# .deb and .rpm ones).  A configure option renamed, a variant mapped to an
# option configure does not have, a version bumped in one place only, or a
# spec that rpm cannot parse fails here, in seconds:
#   - configure.ac's AC_INIT version is debian/changelog's and the spec's;
#   - every --with-NAME that debian/rules, the RPM spec and the Spack
#     package pass is one configure --help lists;
#   - rpmspec -P parses the spec for a given Slurm release (skipped without
#     rpm), and ties iostrata-spank to that release's major and no other;
#   - the Spack package (packaging/spack/package.py), run against a small
#     stand-in for Spack's package DSL (Spack is not packaged for Debian):
#     its variants are the ones it maps, every dependency's when= names one
#     of them, and configure_args() gives every mapped option as =yes with
#     the variant on and =no with it off, each a configure option.
set -u

src=${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
spec=$src/packaging/rpm/iostrata.spec
pkg=$src/packaging/spack/package.py
tmp=$(mktemp -d /tmp/test_packaging.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

echo "1..7"
# shellcheck source=tests/lib/tap.bash
source "$src/tests/lib/tap.bash"

# The --with-NAME options configure accepts (its own, not autoconf's).
"$src/configure" --help >"$tmp/help" 2>&1 || true
sed -n 's/^ *--with-\([a-z0-9-]*\).*/\1/p' "$tmp/help" | sort -u >"$tmp/with"

# 1. one version everywhere
v_ac=$(sed -n 's/^AC_INIT(\[iostrata\], \[\([^]]*\)\].*/\1/p' "$src/configure.ac")
v_deb=$(sed -n '1s/^iostrata (\([^)-]*\)\(-[^)]*\)\{0,1\}).*/\1/p' "$src/debian/changelog")
v_rpm=$(sed -n 's/^Version: *\([^ ]*\)$/\1/p' "$spec")
if [ -n "$v_ac" ] && [ "$v_ac" = "$v_deb" ] && [ "$v_ac" = "$v_rpm" ]; then
	ok "one version: configure.ac, debian/changelog and the spec say $v_ac"
else
	notok "versions differ: configure.ac '$v_ac', debian/changelog '$v_deb', iostrata.spec '$v_rpm'"
fi

# 2-3. the options debian/rules and the spec pass are configure's
for f in debian/rules packaging/rpm/iostrata.spec; do
	opts=$(grep -o -- '--with-[a-z0-9-]*' "$src/$f" | sed 's/^--with-//' | sort -u)
	bad=$(comm -23 <(echo "$opts") "$tmp/with")
	if [ ! -s "$tmp/with" ]; then
		notok "$f: configure --help listed no --with option"
	elif [ -z "$opts" ]; then
		notok "$f passes no --with option"
	elif [ -z "$bad" ]; then
		ok "$f: its $(echo "$opts" | wc -l) --with options are configure's"
	else
		notok "$f passes --with options configure does not have: $(echo $bad)"
	fi
done

# 4. rpmspec parses the spec and ties the plugin to one Slurm major
if command -v rpmspec >/dev/null; then
	if rpmspec -P --define 'slurm_version 23.02.7' "$spec" >"$tmp/spec.out" 2>"$tmp/spec.err"; then
		req=$(sed -n 's/^Requires: *\(slurm[^ ]*\)/\1/p' "$tmp/spec.out")
		con=$(sed -n 's/^Conflicts: *\(slurm[^ ]*\)/\1/p' "$tmp/spec.out")
		if grep -qx 'Requires: *slurm[^ ]* >= 23\.02' <(sed 's/  */ /g' "$tmp/spec.out") &&
			grep -qx 'Conflicts: *slurm[^ ]* >= 23\.03' <(sed 's/  */ /g' "$tmp/spec.out"); then
			ok "rpmspec -P with Slurm 23.02.7: iostrata-spank Requires $req, Conflicts $con"
		else
			notok "rpmspec -P with Slurm 23.02.7: iostrata-spank not tied to 23.02: $(grep -E '^(Requires|Conflicts):' "$tmp/spec.out" | tr '\n' ';')"
		fi
	else
		notok "rpmspec -P $spec: $(head -5 "$tmp/spec.err")"
	fi
else
	skip "rpmspec not installed"
fi

# 5-7. the Spack package against a stand-in for Spack's DSL
command -v python3 >/dev/null || {
	skip "no python3"
	skip "no python3"
	skip "no python3"
	exit 0
}
mkdir -p "$tmp/spack"
cat >"$tmp/spack/__init__.py" <<'PY'
PY
cat >"$tmp/spack/package.py" <<'PY'
# A stand-in for the part of Spack's package DSL that package.py uses: the
# directives record what they are given.
RECORD = {"variant": [], "depends_on": [], "conflicts": [], "version": []}


def variant(name, default=None, description=""):
    RECORD["variant"].append((name, default, description))


def depends_on(spec, when=None, type=None):
    RECORD["depends_on"].append((spec, when))


def conflicts(spec, msg=None, when=None):
    RECORD["conflicts"].append((spec, msg))


def version(name, **kw):
    RECORD["version"].append((name, kw))


def license(text):
    pass


def join_path(*parts):
    return "/".join(str(p) for p in parts)


def autoreconf(*args):
    pass


class AutotoolsPackage:
    pass
PY
cat >"$tmp/check.py" <<'PY'
# Arguments: PACKAGE.PY WITH-LIST MODE; MODE "decl" checks the directives,
# "on" and "off" configure_args() with every variant on or off.
import importlib.util, re, sys

pkg_path, with_path, mode = sys.argv[1], sys.argv[2], sys.argv[3]
configure = set(open(with_path).read().split())
spec = importlib.util.spec_from_file_location("iostrata_pkg", pkg_path)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
from spack.package import RECORD

table = mod.IOSTRATA_VARIANTS
fails = []


def variants_in(s):
    return re.findall(r"[+~]([a-z0-9_]+)", s or "")


def check_decl():
    declared = {v[0] for v in RECORD["variant"]}
    if declared != set(table):
        fails.append("variants %s, mapped %s" % (sorted(declared), sorted(table)))
    for name, (_, opts, _) in table.items():
        for o in opts:
            if o not in configure:
                fails.append("variant %s maps to --with-%s, which configure lacks" % (name, o))
    for dep, when in RECORD["depends_on"]:
        for v in variants_in(when):
            if v not in declared:
                fails.append("depends_on(%s, when=%s): no variant %s" % (dep, when, v))
    for c, _ in RECORD["conflicts"]:
        for v in variants_in(c):
            if v not in declared:
                fails.append("conflicts(%s): no variant %s" % (c, v))
    return "variants: " + " ".join(sorted(declared))


class Node:
    """A prefix: any attribute is a subdirectory."""

    def __init__(self, path):
        self.path = path

    def __getattr__(self, name):
        return Node(self.path + "/" + name)

    def __str__(self):
        return self.path

    def __add__(self, other):
        return self.path + other

    def __radd__(self, other):
        return other + self.path


class Libs:
    ld_flags = "-L/opt/mpi/lib -lmpi"


class Dep:
    prefix = Node("/opt/mpi")
    libs = Libs()


def check_args(on):
    class Spec:
        def satisfies(self, s):
            return all((v in on) == (sign == "+")
                       for sign, v in re.findall(r"([+~])([a-z0-9_]+)", s))

        def __getitem__(self, name):
            return Dep()

    pkg = mod.Iostrata()
    pkg.spec = Spec()
    pkg.prefix = Node("/opt/iostrata")
    args = pkg.configure_args()
    want = "yes" if on else "no"
    for name, (_, opts, _) in table.items():
        for o in opts:
            if "--with-%s=%s" % (o, want) not in args:
                fails.append("variant %s %s: no --with-%s=%s in %s" % (name, mode, o, want, args))
    for a in args:
        m = re.match(r"--with-([a-z0-9-]+)=", a)
        if m and m.group(1) not in configure:
            fails.append("configure_args() passes %s, which configure lacks" % a)
    return " ".join(args)


out = check_decl() if mode == "decl" else check_args(set(table) if mode == "on" else set())
print("\n".join(fails) if fails else out)
sys.exit(1 if fails else 0)
PY
if out=$(PYTHONPATH=$tmp python3 "$tmp/check.py" "$pkg" "$tmp/with" decl 2>&1); then
	ok "Spack package: every variant maps to configure options, every when= to a variant ($out)"
else
	notok "Spack package: $out"
fi
for onoff in on off; do
	if out=$(PYTHONPATH=$tmp python3 "$tmp/check.py" "$pkg" "$tmp/with" $onoff 2>&1); then
		ok "Spack package, every variant $onoff: configure_args() $out"
	else
		notok "Spack package, every variant $onoff: $out"
	fi
done
