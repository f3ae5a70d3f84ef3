#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# arrows.sh [TOP]: the one table of allowed include arrows, docs/arrows.txt,
# against everything that says it again:
# - every quoted #include of a folder's C sources names a header of that
#   folder or of a folder its arrows allow, and no include walks a path
#   ("../x.h", "dir/x.h").  The build already refuses most wrong arrows
#   (each folder compiles with only its allowed -I); this also catches the
#   ones an -I of a neighbour would let through;
# - the build's include variables (INC_* in Makefile.am: each ends with its
#   folder's own -I, the others are its arrows);
# - the layout of docs/INTERFACES.md ("folder/ ... -> a, b");
# - README.md's sentence ("common <- model, facts; model <- h5schema <-
#   report": the direct arrows, whose closure is the table).
# - every subfolder of a folder of the table that holds C sources is a
#   folder of the table itself (mpibench/backends, ...);
# TAP output (one test per folder, one for the subfolders, one per copy,
# and self-tests that plant a wrong arrow in a temporary tree and want it
# found).
set -u

top=${1:-${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}}

declare -A allow=()
folders=()

# read_table FILE: allow[folder]="arrows", folders=(in order).
read_table() {
	local folder rest
	allow=() folders=()
	while read -r folder rest; do
		[[ -z $folder || $folder == \#* ]] && continue
		allow[$folder]=$rest
		folders+=("$folder")
	done <"$1"
}

# The words of "$*", sorted and unique, on one line.
set_of() {
	tr -s ' ,\t' '\n' <<<"$*" | grep . | sort -u | tr '\n' ' ' | sed 's/ $//'
}

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

# rooms TREE: one line per subfolder of a folder of the table that holds C
# sources but is no folder of the table itself (a room the build and this
# check would not see: mpibench/'s rooms are each a line of the table).
rooms() {
	local tree=$1 dir sub f
	for dir in "${folders[@]}"; do
		for sub in "$tree/$dir"/*/; do
			sub=${sub%/}
			[[ -n ${allow[$dir/${sub##*/}]+x} ]] && continue
			for f in "$sub"/*.c "$sub"/*.h; do
				if [[ -e $f ]]; then
					echo "$dir/${sub##*/}/ holds C sources but is not a folder of the table"
					break
				fi
			done
		done
	done
}

# agree WHERE FOLDER GOT: one line when GOT is not the table's arrows.
agree() {
	local want got
	want=$(set_of "${allow[$2]-}")
	got=$(set_of "$3")
	[[ $got == "$want" ]] ||
		echo "$1: $2 -> ${got:-(nothing)}, the table: $2 -> ${want:-(nothing)}"
}

# makefile TREE: the INC_* variables of TREE/Makefile.am against the table.
makefile() {
	local tree=$1 var def own got dirs v
	local -A defs=() seen=()
	while read -r var def; do
		defs[$var]=$def
	done < <(sed -n 's/^\(INC_[A-Z0-9_]*\)[[:space:]]*=[[:space:]]*\(.*\)$/\1 \2/p' "$tree/Makefile.am")
	for var in "${!defs[@]}"; do
		def=${defs[$var]}
		while [[ $def =~ \$\((INC_[A-Z0-9_]*)\) ]]; do
			v=${BASH_REMATCH[1]}
			def=${def/"\$($v)"/${defs[$v]-UNDEFINED_$v}}
		done
		dirs=$(grep -o -- '-I$(top_srcdir)/[a-z0-9_/]*' <<<"$def" |
			sed 's|^-I$(top_srcdir)/||')
		own=$(tail -n 1 <<<"$dirs")
		if [[ -z ${allow[$own]+x} ]]; then
			echo "Makefile.am: $var ends with -I of $own/, not a folder of the table"
			continue
		fi
		seen[$own]=1
		got=$(grep -vx -- "$own" <<<"$dirs")
		agree "Makefile.am $var" "$own" "$got"
	done
	for own in "${folders[@]}"; do
		# bench/ has no headers of its own: it compiles with INC_MB_BACKENDS.
		[[ $own == bench || -n ${seen[$own]-} ]] ||
			echo "Makefile.am: no INC_ variable ends with -I of $own/"
	done
}

# interfaces TREE: the layout block of TREE/docs/INTERFACES.md.
interfaces() {
	local tree=$1 folder arrows
	local -A got=()
	while IFS='|' read -r folder arrows; do
		[[ $arrows == "(nothing)" ]] && arrows=
		got[$folder]=$arrows
	done < <(awk '
		/^## Layout and the allowed arrows/ { on = 1; next }
		on && /^```/ { if (++fence == 2) exit; next }
		on && fence == 1 {
			if (match($0, /^[a-z0-9\/]+\//))
				cur = substr($0, 1, RLENGTH - 1)
			if ((i = index($0, "->")) > 0) {
				a = substr($0, i + 2)
				gsub(/^ +| +$/, "", a)
				print cur "|" a
			}
		}' "$tree/docs/INTERFACES.md")
	for folder in "${!got[@]}"; do
		[[ -n ${allow[$folder]+x} ]] ||
			echo "docs/INTERFACES.md: $folder/ has arrows, but is not a folder of the table"
	done
	for folder in "${folders[@]}"; do
		if [[ -z ${got[$folder]+x} ]]; then
			echo "docs/INTERFACES.md: no arrow for $folder/"
		else
			agree docs/INTERFACES.md "$folder" "${got[$folder]}"
		fi
	done
}

# readme TREE: the sentence of TREE/README.md, "(a <- b, c; c <- d <- e)":
# each word points at the part before its "<-"; the closure of these
# arrows is the table.
readme() {
	local tree=$1 text seg part prev x y folder
	local -A direct=() mentioned=()
	text=$(tr '\n' ' ' <"$tree/README.md" | tr -s ' ' |
		sed -n 's/.*include directories of the folders it may use (\([^)]*\)).*/\1/p')
	if [[ -z $text ]]; then
		echo "README.md: the sentence \"include directories of the folders it may use (...)\" is gone"
		return
	fi
	IFS=';' read -ra segs <<<"$text"
	for seg in "${segs[@]}"; do
		prev=
		while [[ -n $seg ]]; do
			part=${seg%%<-*}
			[[ $part == "$seg" ]] && seg= || seg=${seg#*<-}
			part=$(set_of "$part")
			for x in $part; do
				mentioned[$x]=1
				for y in $prev; do
					direct[$x]+=" $y"
				done
			done
			prev=$part
		done
	done
	for x in "${!mentioned[@]}"; do
		[[ -n ${allow[$x]+x} ]] ||
			echo "README.md: $x is not a folder of the table"
	done
	for folder in "${folders[@]}"; do
		if [[ -z ${mentioned[$folder]-} ]]; then
			echo "README.md: $folder is not in the sentence"
			continue
		fi
		agree README.md "$folder" "$(closure "$folder")"
	done
}

# closure FOLDER (of readme's direct[]): every folder reachable.
closure() {
	local -A reach=()
	local todo=("$1") x y
	while ((${#todo[@]})); do
		x=${todo[0]}
		todo=("${todo[@]:1}")
		for y in ${direct[$x]-}; do
			[[ -n ${reach[$y]-} ]] && continue
			reach[$y]=1
			todo+=("$y")
		done
	done
	echo "${!reach[@]}"
}

# copies TREE: every copy of the table in TREE, one line per disagreement.
copies() {
	makefile "$1"
	interfaces "$1"
	readme "$1"
}

read_table "$top/docs/arrows.txt"
if ((${#folders[@]} == 0)); then
	echo "1..1"
	echo "not ok 1 - no table of arrows in $top/docs/arrows.txt"
	exit 1
fi
# shellcheck source=tests/lib/tap.bash
source "$top/tests/lib/tap.bash"
echo "1..$((${#folders[@]} + 6))"
# tap OK TEXT [DETAIL]: ok or notok, the DETAIL lines after a notok
tap() {
	if (($1)); then
		ok "$2"
	else
		notok "$2"
		[[ -n ${3-} ]] && sed 's/^/# /' <<<"$3"
	fi
	return 0
}

for dir in "${folders[@]}"; do
	out=$(check "$top" "$dir")
	tap $((!$?)) "$dir/ includes only what its arrows allow" "$out"
done
out=$(rooms "$top")
tap $((${#out} == 0)) "every folder with C sources below the table's is in it" "$out"
for copy in makefile interfaces readme; do
	out=$($copy "$top")
	tap $((${#out} == 0)) "$copy: the same arrows as docs/arrows.txt" "$out"
done

tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT

# Self-test: a planted model/ file that includes an h5schema header (an
# arrow that runs back up) and one that includes by path must be found.
mkdir -p "$tmp/src/model" "$tmp/src/h5schema" "$tmp/src/common"
: >"$tmp/src/h5schema/h5run.h"
: >"$tmp/src/common/errbuf.h"
printf '#include "errbuf.h"\n#include "h5run.h"\n#include "../h5schema/h5run.h"\n' >"$tmp/src/model/bad.c"
out=$(check "$tmp/src" model)
# and a subfolder with C sources that is not in the table (a room the
# build's include variables would not name)
mkdir -p "$tmp/src/mpibench/meta" "$tmp/src/mpibench/engine"
: >"$tmp/src/mpibench/meta/meta_rank.c"
: >"$tmp/src/mpibench/engine/phase.c"
out+=$'\n'$(rooms "$tmp/src")
tap $(($(grep -c . <<<"$out") == 3)) \
	"the check finds a planted wrong arrow, a path include and a room not in the table" "$out"

# Self-test: each copy in a temporary tree with one wrong arrow planted
# (spank -> model), and the table itself changed under right copies: each
# must be found, and nothing else.
mkdir -p "$tmp/copy/docs"
cp "$top/Makefile.am" "$top/README.md" "$tmp/copy/"
cp "$top/docs/INTERFACES.md" "$top/docs/arrows.txt" "$tmp/copy/docs/"
plant() { # FILE SED: a fresh copy of FILE with SED applied
	cp "$top/$1" "$tmp/copy/$1"
	sed -i "$2" "$tmp/copy/$1"
	cmp -s "$top/$1" "$tmp/copy/$1" && echo "plant: $2 changed nothing in $1"
}
found=
plant Makefile.am 's|^INC_SPANK = \$(INC_COMMON)|INC_SPANK = $(INC_MODEL)|'
found+=$(copies "$tmp/copy" | grep -c 'spank -> common model')
cp "$top/Makefile.am" "$tmp/copy/"
plant docs/INTERFACES.md 's|^\(spank/.*-> \)common$|\1model, common|'
found+=$(copies "$tmp/copy" | grep -c 'spank -> common model')
cp "$top/docs/INTERFACES.md" "$tmp/copy/docs/"
plant README.md 's|model <- h5schema|model <- spank, h5schema|'
found+=$(copies "$tmp/copy" | grep -c 'spank -> common model')
cp "$top/README.md" "$tmp/copy/"
clean=$(copies "$tmp/copy")
plant docs/arrows.txt 's|^spank.*|spank\t\tmodel common|'
read_table "$tmp/copy/docs/arrows.txt"
found+=$(copies "$tmp/copy" | grep -c 'the table: spank -> common model')
read_table "$top/docs/arrows.txt"
ok=0
[[ $found == 1113 && -z $clean ]] && ok=1
tap $ok \
	"a wrong arrow planted in Makefile.am, INTERFACES.md, README.md or the table is found" \
	"found per plant (want 1 1 1 3): $found; in the unchanged copies: ${clean:-nothing}"
exit $((tap_fails > 0))
