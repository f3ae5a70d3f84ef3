#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_report_shapes.sh: a corpus of results files whose counts and indices
# disagree (a repetition grafted from a 60,000-rank run into a 1-rank run,
# rank records off the rank table, negative and huge indices, duplicate
# ranks, ranks on nodes the run does not have, error records of other
# ranks, sample counts beyond the stored samples, count attributes against
# their tables), made from the real writer's files (iostrata-h5synth) with
# h5py, through every iostrata-report command.  Each must refuse the file:
# exit 2, the message names the file and the field, no crash and no
# sanitizer report (run it against the ASan build: IOSTRATA_BUILDDIR=
# build-san).  Before the reader checked the shapes, validate said OK for
# most of them and accept read past the rank table (ios_node_rates,
# heap-buffer-overflow under ASan, SIGSEGV in the plain build).
# REPORT=path overrides the binary.
set -u

. "$(dirname "$0")/report_h5py.bash"
export IOSTRATA_PARSE_TIMEOUT_S=60

"$synth" --nodes 1 --ranks-per-node 1 --phases write,read --reps 1 --samples 2 "$dir/one.h5" >/dev/null &&
	"$synth" --nodes 100 --ranks-per-node 600 --phases write --reps 1 --samples 1 "$dir/big.h5" >/dev/null &&
	"$synth" --nodes 2 --ranks-per-node 2 --phases write,read --reps 2 --samples 3 --early 1 "$dir/base.h5" >/dev/null &&
	"$synth" --nodes 1 --ranks-per-node 2 --phases write,read --reps 1 --samples 3 "$dir/two.h5" >/dev/null || {
	echo "Bail out! iostrata-h5synth failed"
	exit 1
}

# One case a line: NAME, the object the message must name, what it says.
# The generator below makes $dir/NAME.h5 for each.
cases=$(
	cat <<'EOF'
graft-60000	/phases/0/reps/0/ranks	60000 ranks, the run has 1
graft-fewer	/phases/0/reps/0/ranks	2 ranks, the run has 4
rank-99	/phases/0/reps/0/ranks	record 0 is of rank 99
rank-negative	/phases/1/reps/1/ranks	record 2 is of rank -1
rank-huge	/phases/0/reps/1/ranks	record 3 is of rank 2147483647
rank-twice	/phases/0/reps/0/ranks	rank 0 has two records
node-7	/ranks	rank 0 is on node 7
node-negative	/ranks	rank 3 is on node -3
row-not-rank	/ranks	row 1 is of rank 5
error-rank	/phases/0/reps/0/errors	error 0 is of rank 1000
error-rank-negative	/phases/0/reps/0/errors	error 0 is of rank -1
error-op	/phases/0/reps/0/errors	error 0: op 9
samples-beyond	/phases/0/reps/0	rank 0 has 1000 samples, the dataset only 3
samples-huge	/phases/1/reps/0	rank 1 has 4294967295 samples, the dataset only 3
sample-columns	/phases/0/reps/0	rank 0 has 3 samples, the dataset only 1
rep-nranks-less	/phases/0/reps/0	dataset 'ranks' has 4 rows, not 3
rep-nranks-negative	/phases/0/reps/0	nranks -1 or nnodes 2 out of range
rep-nnodes	/phases/0/reps/0	node_bw has 2 entries, not 5
rep-nnodes-more	/phases/0/reps/0/node_bw	7 nodes, the run has 2
run-nranks	/	dataset 'ranks' has 4 rows, not 2
run-nnodes-less	/ranks	rank 2 is on node 1, the run's nodes are 0 to 0
run-nnodes-huge	/nodes	nnodes 16777216, but the group holds 2 members
nreps-huge	/phases/1/reps	nreps 1000, but the group holds 2 members
lat-hist-rows	/phases/0/reps/0	dataset 'lat_hist' is 3x976, expected 4 rows
EOF
)

$PY - "$dir" <<'EOF' || { echo "Bail out! h5py could not make the corpus"; exit 1; }
import shutil, sys
import h5py
import numpy as np

d = sys.argv[1]

def make(name, src='base'):
    shutil.copy(f'{d}/{src}.h5', f'{d}/{name}.h5')
    return h5py.File(f'{d}/{name}.h5', 'r+')

def setfield(ds, row, field, value):
    a = ds[...]
    a[row][field] = value
    ds[...] = a

def graft(name, into, frm):
    f = make(name, into)
    g = h5py.File(f'{d}/{frm}.h5', 'r')
    del f['phases/0/reps/0']
    g.copy('phases/0/reps/0', f['phases/0/reps'], name='0')
    g.close()
    f.close()

graft('graft-60000', 'one', 'big')
graft('graft-fewer', 'base', 'two')
for name, path, row, field, value in [
        ('rank-99', 'phases/0/reps/0/ranks', 0, 'rank', 99),
        ('rank-negative', 'phases/1/reps/1/ranks', 2, 'rank', -1),
        ('rank-huge', 'phases/0/reps/1/ranks', 3, 'rank', 2**31 - 1),
        ('rank-twice', 'phases/0/reps/0/ranks', 1, 'rank', 0),
        ('node-7', 'ranks', 0, 'node', 7),
        ('node-negative', 'ranks', 3, 'node', -3),
        ('row-not-rank', 'ranks', 1, 'rank', 5),
        ('error-rank', 'phases/0/reps/0/errors', 0, 'rank', 1000),
        ('error-rank-negative', 'phases/0/reps/0/errors', 0, 'rank', -1),
        ('error-op', 'phases/0/reps/0/errors', 0, 'op', 9),
        ('samples-beyond', 'phases/0/reps/0/ranks', 0, 'nsamples', 1000),
        ('samples-huge', 'phases/1/reps/0/ranks', 1, 'nsamples', 2**32 - 1)]:
    f = make(name)
    setfield(f[path], row, field, value)
    f.close()

def replace(f, path, data):
    del f[path]
    f[path] = data

f = make('sample-columns')
for k in ('sample_bytes', 'sample_ops'):
    replace(f, f'phases/0/reps/0/{k}', np.zeros((4, 1), dtype='<u8'))
f.close()
f = make('lat-hist-rows')
replace(f, 'phases/0/reps/0/lat_hist', np.zeros((3, 976), dtype='<u8'))
f.close()
for name, path, attr, value in [
        ('rep-nranks-less', 'phases/0/reps/0', 'nranks', 3),
        ('rep-nranks-negative', 'phases/0/reps/0', 'nranks', -1),
        ('rep-nnodes', 'phases/0/reps/0', 'nnodes', 5),
        ('run-nranks', '/', 'nranks', 2),
        ('run-nnodes-less', '/', 'nnodes', 1),
        ('run-nnodes-huge', '/', 'nnodes', 1 << 24),
        ('nreps-huge', 'phases/1', 'nreps', 1000)]:
    f = make(name)
    f[path].attrs.modify(attr, np.int32(value))
    f.close()
f = make('rep-nnodes-more')
f['phases/0/reps/0'].attrs.modify('nnodes', np.int32(7))
replace(f, 'phases/0/reps/0/node_bw', np.zeros(7))
f.close()
EOF

printf '[tier "t"]\nseq_write_bw = 1M\nseq_read_bw = 1M\n' >"$dir/tiers.ini"
# advise reads a campaign's index: one element whose file is the case's
mkadvise() { # mkadvise FILE NAME: a campaign directory of its own
	mkdir -p "$dir/camp-$2"
	printf 'element\tlabel\tcpus\tmem_bytes\tdisk_bw_Bps\tjobid\tstate\tfile\n1\tc2/m24G\t2\t25769803776\t0\t1\tDONE\t%s\n' "$1" >"$dir/camp-$2/index.tsv"
	echo "$dir/camp-$2"
}
commands=(
	"show"
	"show --hosts"
	"export --format=csv"
	"export --format=json"
	"plot --kind=heatmap,throttle,timeline --out=$dir/plot"
	"efficiency --site=$src/site/local/site.conf"
	"accept --tiers=$dir/tiers.ini"
	"accept --tiers=$dir/tiers.ini --format=md"
	"accept --tiers=$dir/tiers.ini --format=json"
	"accept --tiers=$dir/tiers.ini --format=html"
	"accept --profile=nersc"
	"accept --profile=nersc --format=md"
	"accept --profile=nersc --format=json"
	"trend"
	"validate"
	"threads"
	"layers"
	"advise"
)
ncases=$(grep -c . <<<"$cases")
echo "1..$((ncases * ${#commands[@]}))"
# run_case NAME FIELD SAYS N: the case's TAP lines, numbered from N + 1,
# into $dir/res.NAME (the cases run side by side: 432 runs of the report,
# 96 s one after another under ASan on this 2-core machine)
run_case() {
	local name=$1 field=$2 says=$3 n=$4 f=$dir/$1.h5 cmd args rc want
	for cmd in "${commands[@]}"; do
		n=$((n + 1))
		if [ "$cmd" = advise ]; then
			args=(advise "--site=$src/site/local/site.conf" --target=seq-write=0.5 "$(mkadvise "$f" "$name")")
		else
			read -ra args <<<"$cmd"
			args+=("$f")
		fi
		timeout 120 "$report" "${args[@]}" >"$dir/out.$name" 2>"$dir/err.$name"
		rc=$?
		want="read $f: $field: $says"
		if [ $rc -eq 2 ] && grep -qF -- "$want" "$dir/out.$name" "$dir/err.$name" &&
			! grep -qE 'AddressSanitizer|runtime error:|LeakSanitizer' "$dir/err.$name"; then
			echo "ok $n - $name: $cmd: exit 2, \"$field: $says\""
		else
			echo "not ok $n - $name: $cmd: exit $rc (want 2 and \"$want\")"
			sed 's/^/# /' "$dir/out.$name" "$dir/err.$name" | head -12
		fi
	done >"$dir/res.$name"
}
par=$(nproc 2>/dev/null || echo 2)
n=0 names=()
while IFS=$'\t' read -r name field says; do
	while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do
		wait -n
	done
	run_case "$name" "$field" "$says" "$n" &
	names+=("$name")
	n=$((n + ${#commands[@]}))
done <<<"$cases"
wait
for name in "${names[@]}"; do
	if [ -s "$dir/res.$name" ]; then
		cat "$dir/res.$name"
	else
		echo "not ok - $name: no result (the case's run died)"
	fi
done
