#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# refs.sh [TOP]: the comments of the C, shell and make files and the
# Markdown files name only files that exist.  A reference is a word that
# looks like a file of this tree: a path under one of its top-level folders
# (model/figures.c, ../common/ceph_dl.{c,h}, site/local/localsite), or a
# bare name with a source ending (figures.c, t2x-lib.bash).  It resolves
# against the naming file's folder, the top, any tracked file it ends
# (unit/test_x.c), or a program the make fragments build (build/ and
# .libs/ dropped: build/report/iostrata-report).  Shell code is checked
# too where it writes a path below $top or $build.  Absolute paths (/sys,
# /proc, installed files) are never references; ELSEWHERE below lists the
# names of files that are meant to live outside this tree.
# TAP output (one test per kind of file, plus a self-test on a planted tree).
set -u

top=${1:-${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}}

# Names that are not files of this tree: the build directories and what
# autotools generate, the design and style notes kept beside the
# repository (shared/), files of a Slurm or Ceph installation, example
# names in prose, the headers of the libraries used.  Placeholders
# (tNN-name.sh, SITE.conf) need no entry.
ELSEWHERE='
build build-sanitize configure config.h
STYLE.md DESIGN.md
slurm.conf plugstack.conf cgroup.conf gres.conf health.conf ceph.conf
job.sh job.sbatch
spank.h slurm.h librados.h libcephfs.h hdf5.h jansson.h ini.h cmocka.h mpi.h
'

check() { # check TOP: one line per dangling reference; exit 1 if any
	ELSEWHERE=$ELSEWHERE /usr/bin/python3 - "$1" <<'PY'
import fnmatch, os, re, subprocess, sys

top = sys.argv[1]
elsewhere = set(os.environ["ELSEWHERE"].split())

def tracked():
    try:
        out = subprocess.run(["git", "-C", top, "ls-files", "-z"], capture_output=True, check=True).stdout
        files = [f for f in out.decode().split("\0") if f]
        if files:
            return [f for f in files if os.path.exists(os.path.join(top, f))]
    except (OSError, subprocess.CalledProcessError):
        pass
    # not a git checkout (a release tarball, the self-test): every file but
    # the build trees (_build: make distcheck's) and what autotools and
    # configure (config.h: an in-tree build, as the packages do) write or copy in
    files = []
    gen = re.compile(r"(aclocal\.m4|configure|config\.h(\.in)?|Makefile\.in|m4/l[^/]*\.m4)$")
    for d, dirs, names in os.walk(top):
        rel = os.path.relpath(d, top)
        if rel == ".":
            dirs[:] = [x for x in dirs if not (x.startswith("build") or x in (".git", "autom4te.cache", "_build"))]
        for n in names:
            f = os.path.normpath(os.path.join(rel, n))
            if not gen.fullmatch(f) and not f.endswith("/Makefile.in"):
                files.append(f)
    return files

files = tracked()
fileset = set(files)
dirset = set()
for f in files:
    p = os.path.dirname(f)
    while p:
        dirset.add(p)
        p = os.path.dirname(p)
basenames = {os.path.basename(f) for f in files}
topdirs = {f.split("/")[0] for f in files if "/" in f}

# what the make fragments build: every path-like word in them
built = set()
for f in files:
    if f == "Makefile.am" or f.endswith(".mk"):
        for w in re.findall(r"[\w.+-]+(?:/[\w.+-]+)+", open(os.path.join(top, f), errors="replace").read()):
            built.add(w)
            if w.endswith(".la"):
                built.add(w[:-3] + ".so")
built_base = {os.path.basename(b) for b in built}

EXT = r"(?:c|h|sh|bash|md|mk|am|ac|def|m4|lds|py|sbatch|conf|in)"
# a path: ../ parts, or a top-level folder (or build/), then more parts
PATH = re.compile(r"(?<![\w/.$@%~*-])((?:\.\./)*[A-Za-z_][\w.-]*(?:/[\w.{},*\[\]-]+)+)")
BARE = re.compile(r"(?<![\w/.$@%~*<-])([A-Za-z_][\w-]*(?:\.[\w-]+)*\.(?:" + EXT + r"|\{[\w,]+\}))(?![\w/-])")
VAR = re.compile(r"\$\{?(?:top|build|TOP|BUILD|srcdir|top_srcdir|top_builddir)\}?/([\w.{},/-]+/[\w.{},/-]+|[\w.-]+\.(?:" + EXT + r")\b)")
PLACEHOLDER = re.compile(r"NN|^[A-Z][A-Z0-9_]*(?:\.|$)")

def expand(tok):
    while tok.endswith("}") and tok.count("}") > tok.count("{"):
        tok = tok[:-1]  # ${VAR:-$top/x}
    if tok.count("{") != tok.count("}"):
        return []  # a brace list broken across lines: cannot tell
    m = re.search(r"\{([^{}]*)\}", tok)
    if not m:
        return [tok]
    out = []
    for alt in m.group(1).split(","):
        out += expand(tok[:m.start()] + alt + tok[m.end():])
    return out

def exists(tok, here):
    t = tok.rstrip(".,;:)")
    if any(PLACEHOLDER.search(c) for c in t.split("/")) or t in elsewhere:
        return True
    if "*" in t or "[" in t:
        pats = (os.path.normpath(os.path.join(here, t)), os.path.normpath(t))
        return any(fnmatch.fnmatchcase(f, p) for f in files for p in pats)
    for pre in ("build-sanitize/", "build/"):
        if t.startswith(pre):
            t = t[len(pre):]
            if "/" not in t:
                return True  # config.log, make.out: what configure and make write
    t = t.replace("/.libs/", "/")
    for cand in (os.path.normpath(os.path.join(here, t)), os.path.normpath(t)):
        if cand in fileset or cand in dirset or cand in built:
            return True
    if "/" not in t:
        return t in basenames or t in built_base
    tail = "/" + t.lstrip("./")
    return any(("/" + f).endswith(tail) for f in files) or any(("/" + b).endswith(tail) for b in built)

def template(s, m):
    """the word goes on with a variable or a <placeholder>: fuzz_$h, fuzz_<name>"""
    return s[m.end(1):m.end(1) + 1] in ("$", "<")

def refs(text, code):
    for m in PATH.finditer(text):
        tok = m.group(1).rstrip(".,;:")
        first = tok.split("/")[0]
        if (first == ".." or first in topdirs or first in ("build", "build-sanitize")) and not template(text, m):
            yield tok
    for m in BARE.finditer(text):
        yield m.group(1)
    for m in VAR.finditer(code):
        if not template(code, m):
            yield m.group(1)

def c_comments(src):
    """(line, text) of every line of every comment (not of strings)"""
    for m in re.finditer(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", src, re.S):
        s = m.group(0)
        if s.startswith("/"):
            n = src.count("\n", 0, m.start()) + 1
            for i, line in enumerate(s.split("\n")):
                yield n + i, line

def sh_comments(src):
    """(line, comment text, code before it) of every line"""
    for n, line in enumerate(src.split("\n"), 1):
        if n == 1 and line.startswith("#!"):
            continue
        m = re.search(r"(?:^|\s)#(?:\s|$|#)(.*)$", line)
        if m:
            yield n, m.group(1), line[:m.start()]
        else:
            yield n, "", line

def kind(f, head):
    if f.endswith((".c", ".h")):
        return "c"
    if f.endswith(".md"):
        return "md"
    if f.endswith((".sh", ".bash", ".mk", ".sbatch", ".am", ".ac", ".m4")) or head.startswith("#!/bin/bash") or head.startswith("#!/bin/sh") or head.startswith("#!/usr/bin/env bash"):
        return "sh"
    return None

bad = {"c": [], "sh": [], "md": []}
for f in files:
    path = os.path.join(top, f)
    try:
        src = open(path, errors="replace").read()
    except OSError:
        continue
    k = kind(f, src[:40])
    if not k:
        continue
    here = os.path.dirname(f)
    items = []
    if k == "c":
        items = [(n, t, "") for n, t in c_comments(src)]
    elif k == "sh":
        items = list(sh_comments(src))
        if f.endswith((".mk", ".am", ".ac", ".m4")):
            items = [(n, t, "") for n, t, _ in items]
    else:
        # Markdown: every line, code blocks too
        items = [(n, l, "") for n, l in enumerate(src.split("\n"), 1)]
    for n, text, code in items:
        for tok in refs(text, code):
            for one in expand(tok):
                if not exists(one, here):
                    bad[k].append("%s:%d: %s" % (f, n, one))

for k in ("c", "sh", "md"):
    for b in sorted(set(bad[k])):
        print(k, b)
sys.exit(1 if any(bad.values()) else 0)
PY
}

out=$(check "$top" 2>&1)
rc=$?
echo "1..4"
n=0 fails=0
for k in c sh md; do
	n=$((n + 1))
	case $k in
	c) what="C comments" ;;
	sh) what="shell and make comments (and shell paths below \$top, \$build)" ;;
	md) what="Markdown files" ;;
	esac
	mine=$(grep "^$k " <<<"$out" | cut -d' ' -f2-)
	if [[ -z $mine ]]; then
		echo "ok $n - $what name only files that exist"
	else
		echo "not ok $n - $what name files that do not exist"
		sed 's/^/# /' <<<"$mine"
		fails=$((fails + 1))
	fi
done
if ((rc != 0 && fails == 0)); then
	echo "# the check itself failed: $out"
	fails=$((fails + 1))
fi

# Self-test: a planted tree whose comments and README name a moved file,
# a file by a stale path and a missing bare name must be caught, and its
# good references (relative, braces, built program, absolute) must not.
n=$((n + 1))
tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
mkdir -p "$tmp/model" "$tmp/report" "$tmp/tests/unit" "$tmp/common"
: >"$tmp/common/units.c"
printf 'bin_PROGRAMS += report/iostrata-report\n' >"$tmp/report/local.mk"
printf '/* see ../model/figures.{c,h} and /sys/devices/system/cpu */\n' >"$tmp/report/main.c"
printf '/* moved: common/figures.c */\nint x;\n' >"$tmp/model/figures.c"
: >"$tmp/model/figures.h"
printf '#!/bin/bash\n# runs build/report/iostrata-report, then tests/unit/gone.sh\nx=$%s/model/nope.c\n# not build/model/iostrata-report\n' top >"$tmp/tests/unit/t.sh"
printf '# Readme\n`figures.c`, `report/main.c`, `missing_thing.c`, `/etc/slurm/slurm.conf`\n' >"$tmp/README.md"
out=$(check "$tmp" 2>&1)
want=$'c model/figures.c:1: common/figures.c\nsh tests/unit/t.sh:2: tests/unit/gone.sh\nsh tests/unit/t.sh:3: model/nope.c\nsh tests/unit/t.sh:4: build/model/iostrata-report\nmd README.md:2: missing_thing.c'
if [[ $out == "$want" ]]; then
	echo "ok $n - the check finds planted dangling references and only those"
else
	echo "not ok $n - the check on a planted tree printed:"
	sed 's/^/# /' <<<"$out"
	echo "# wanted:"
	sed 's/^/# /' <<<"$want"
	fails=$((fails + 1))
fi
exit $((fails > 0))
