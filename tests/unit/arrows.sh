#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# arrows.sh [TOP]: every quoted #include of a folder's C sources names a
# header of that folder or of a folder its arrows allow (the table below,
# the same as the include directories in Makefile.am and docs/INTERFACES.md),
# and no include walks a path ("../x.h", "dir/x.h").  The build already
# refuses most wrong arrows (each folder compiles with only its allowed -I);
# this also catches the ones an -I of a neighbour would let through.
# TAP output (one test per folder, plus a self-test on a planted bad tree).
set -u

top=${1:-${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}}

declare -A allow=(
	[common]=""
	[model]="common"
	[facts]="common"
	[h5schema]="model common"
	[site]="common"
	[report]="h5schema model site common"
	[mpibench]="h5schema facts model common"
	[spank]="common"
	[jobscripts]="site common"
	[bench]="mpibench h5schema facts model common"
)
folders=(common model facts h5schema site report mpibench spank jobscripts bench)

# check TREE FOLDER: print one line per bad include; exit 1 if any.
check() {
	local tree=$1 dir=$2 f inc ok d bad=0
	for f in "$tree/$dir"/*.c "$tree/$dir"/*.h; do
		[[ -e $f ]] || continue
		while IFS= read -r inc; do
			case $inc in
			config.h | schema.def) continue ;;
			*/*)
				echo "$dir/${f##*/}: #include \"$inc\": a path, not a header name"
				bad=1
				continue
				;;
			esac
			[[ -e $tree/$dir/$inc ]] && continue
			ok=0
			for d in ${allow[$dir]}; do
				[[ -e $tree/$d/$inc ]] && ok=1 && break
			done
			if ((!ok)); then
				echo "$dir/${f##*/}: #include \"$inc\": not in $dir/ nor in its allowed folders (${allow[$dir]:-none})"
				bad=1
			fi
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
	done
	return $bad
}

n=0 fails=0
echo "1..$((${#folders[@]} + 1))"
for dir in "${folders[@]}"; do
	n=$((n + 1))
	if out=$(check "$top" "$dir"); then
		echo "ok $n - $dir/ includes only what its arrows allow"
	else
		echo "not ok $n - $dir/ includes against the design"
		sed 's/^/# /' <<<"$out"
		fails=$((fails + 1))
	fi
done

# Self-test: a planted model/ file that includes an h5schema header (an
# arrow that runs back up) and one that includes by path must be found.
n=$((n + 1))
tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
mkdir -p "$tmp/model" "$tmp/h5schema" "$tmp/common"
: >"$tmp/h5schema/h5run.h"
: >"$tmp/common/errbuf.h"
printf '#include "errbuf.h"\n#include "h5run.h"\n#include "../h5schema/h5run.h"\n' >"$tmp/model/bad.c"
out=$(check "$tmp" model)
if [[ $(grep -c . <<<"$out") == 2 && $out == *'"h5run.h": not in model/'* && $out == *'a path'* ]]; then
	echo "ok $n - the check finds a planted wrong arrow and a path include"
else
	echo "not ok $n - the check missed a planted wrong arrow: $out"
	fails=$((fails + 1))
fi
exit $((fails > 0))
