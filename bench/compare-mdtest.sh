#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/compare-mdtest.sh: iostrata-bench's metadata phases (--meta, the
# posix backend) against IOR's mdtest on the same directory: files only,
# 0 bytes, create, stat, read (open and close: 0 bytes) and remove, a fixed
# count per rank, in the easy layout (a directory per rank: mdtest -u,
# --meta-layout=easy) and the hard one (one directory shared by every
# rank: mdtest without -u, --meta-layout=hard).  Interleaved pairs (the
# order alternates), each pair in fresh directories under DIR; the load
# average (1 min) is read before every pair and printed next to it.  Per
# layout, ranks and phase: the medians of each tool's ops/s (mdtest's
# "Mean" rate of its one iteration; iostrata's ops/s of its one
# repetition: operations over the slowest rank's wall time, as mdtest's)
# and the median of the per-pair ratios, iostrata over mdtest, over the
# pairs started under LOAD_MAX and over all pairs.  Run by hand, as root,
# on an idle machine; never part of the timed tests.  DIR is a local
# filesystem or the local site's CephFS mount (with its env sourced:
# "$IOSTRATA_CEPHFS_MOUNT"/compare-mdtest).
#
# mdtest is not a Debian package: build it from IOR's source
# (github.com/hpc/ior: ./bootstrap && ./configure --prefix=DIR && make
# install) and give -m DIR/bin/mdtest.
#
# Usage: bench/compare-mdtest.sh -m MDTEST [-b BUILD] [-d DIR] [-n FILES]
#                                [-p PAIRS] [-L easy,hard] [-l LOAD_MAX]
#                                [RANKS...]   (default: 1 2)
# Defaults: DIR /var/tmp/iostrata-compare-mdtest, FILES 5000 per rank,
# PAIRS 5, LOAD_MAX 1.5.
# Output: a table on stdout; raw rows in /var/tmp/iostrata-compare-mdtest.tsv
# (layout, ranks, pair, load, phase, iostrata ops/s, mdtest ops/s).

set -euo pipefail
build=$(cd "$(dirname "$0")/.." && pwd)/build
mdtest=
dir=/var/tmp/iostrata-compare-mdtest
files=5000
pairs=5
layouts=easy,hard
load_max=1.5
usage() { sed -n '24,28p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while getopts b:m:d:n:p:L:l:h o; do
	case $o in
	b) build=$OPTARG ;;
	m) mdtest=$OPTARG ;;
	d) dir=$OPTARG ;;
	n) files=$OPTARG ;;
	p) pairs=$OPTARG ;;
	L) layouts=$OPTARG ;;
	l) load_max=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
bench=$build/mpibench/iostrata-bench
[[ -x $bench ]] || { echo "compare-mdtest: $bench not built" >&2; exit 2; }
[[ -n $mdtest && -x $mdtest ]] ||
	{ echo "compare-mdtest: no mdtest binary (give -m PATH; mdtest is built from github.com/hpc/ior)" >&2; exit 2; }
[[ $files =~ ^[1-9][0-9]{0,6}$ ]] || { echo "compare-mdtest: -n \"$files\": files per rank, 1 to 9999999" >&2; exit 2; }
[[ $pairs =~ ^[1-9][0-9]?$ ]] || { echo "compare-mdtest: -p \"$pairs\": pairs, 1 to 99" >&2; exit 2; }
IFS=, read -ra lay <<<"$layouts"
for l in "${lay[@]}"; do
	[[ $l == easy || $l == hard ]] || { echo "compare-mdtest: -L \"$layouts\": easy, hard or both (easy,hard)" >&2; exit 2; }
done
ranks=("$@")
((${#ranks[@]})) || ranks=(1 2)
for n in "${ranks[@]}"; do
	[[ $n =~ ^[1-9][0-9]{0,2}$ ]] || { echo "compare-mdtest: ranks \"$n\": 1 to 999" >&2; exit 2; }
done
# shellcheck source=bench/lib.bash
. "$(dirname "$0")/lib.bash"
bench_mpi_env
# a directory of our own under DIR (created here, removed at the end)
mkdir -p "$dir"
tmp=$(mktemp -d "$dir/run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tsv=/var/tmp/iostrata-compare-mdtest.tsv
: >"$tsv"

# run_mb N LAYOUT DIR -> "create stat read remove" ops/s
run_mb() {
	mkdir "$3"
	mpirun -n "$1" --bind-to none "$bench" --backend=posix \
		--meta=create,stat,read,remove --meta-layout="$2" --meta-files="$files" \
		--dir="$3" --reps=1 --quiet --summary=json --output=none | grep '^{' |
		/usr/bin/python3 -c '
import json, sys
m = {p["op"]: p["reps"][0]["ops_s"] for p in json.load(sys.stdin)["meta"]}
print(" ".join("%.1f" % m[o] for o in ("create", "stat", "read", "remove")))'
}

# run_md N LAYOUT DIR -> "create stat read remove" ops/s (mdtest's Mean)
run_md() {
	local u=()
	[[ $2 == easy ]] && u=(-u)
	mkdir "$3"
	mpirun -n "$1" --bind-to none "$mdtest" -F -n "$files" "${u[@]}" -i 1 -d "$3/t" 2>/dev/null |
		awk '$1 == "File" { r[$2] = $5 }
			END { printf "%s %s %s %s\n", r["creation"], r["stat"], r["read"], r["removal"] }'
}

k=0
for l in "${lay[@]}"; do
	for n in "${ranks[@]}"; do
		# one of each first, not counted (caches, the first mkdir)
		run_mb "$n" "$l" "$tmp/warm.mb" >/dev/null
		run_md "$n" "$l" "$tmp/warm.md" >/dev/null
		rm -rf "$tmp/warm.mb" "$tmp/warm.md"
		for ((p = 1; p <= pairs; p++)); do
			load=$(cut -d' ' -f1 /proc/loadavg)
			# (the directories named out here: a $((k++)) inside $(...)
			# counts in the subshell only)
			wa=$tmp/w$((k++)) wb=$tmp/w$((k++))
			if ((p % 2)); then
				a=$(run_mb "$n" "$l" "$wa")
				b=$(run_md "$n" "$l" "$wb")
			else
				b=$(run_md "$n" "$l" "$wb")
				a=$(run_mb "$n" "$l" "$wa")
			fi
			read -ra av <<<"$a"
			read -ra bv <<<"$b"
			[[ ${#av[@]} -eq 4 && ${#bv[@]} -eq 4 ]] ||
				{ echo "compare-mdtest: $l $n rank(s) pair $p: a run gave no figures (iostrata: \"$a\", mdtest: \"$b\")" >&2; exit 1; }
			i=0
			for ph in create stat read remove; do
				printf '%s\t%d\t%d\t%s\t%s\t%s\t%s\n' "$l" "$n" "$p" "$load" "$ph" "${av[i]}" "${bv[i]}" >>"$tsv"
				i=$((i + 1))
			done
			echo "compare-mdtest: $l, $n rank(s), pair $p (load $load): iostrata $a | mdtest $b" >&2
			rm -rf "${tmp:?}"/w*
		done
	done
done

/usr/bin/python3 - "$tsv" "$load_max" <<'PY'
import statistics as st
import sys

rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
lmax = float(sys.argv[2])
cases = {}
for lay, n, p, load, ph, a, b in rows:
    cases.setdefault((lay, int(n), ph), []).append((float(load), float(a), float(b)))
print("| layout | ranks | phase | iostrata ops/s | mdtest ops/s | ratio (median of pairs) | pairs under load %.1f: ratio | load max |" % lmax)
print("|---|---|---|---|---|---|---|---|")
for (lay, n, ph), v in cases.items():
    ratios = [a / b for _, a, b in v if b > 0]
    quiet = [a / b for load, a, b in v if b > 0 and load < lmax]
    print("| %s | %d | %s | %.0f | %.0f | %.2f | %s | %.2f |" % (
        lay, n, ph, st.median(a for _, a, _ in v), st.median(b for _, _, b in v),
        st.median(ratios), "%.2f (%d)" % (st.median(quiet), len(quiet)) if quiet else "none",
        max(l for l, _, _ in v)))
PY
