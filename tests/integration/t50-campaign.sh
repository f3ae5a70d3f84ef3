#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t50-campaign: iostrata-campaign against the real local Slurm, with the
# benchmark replaced by a stub (so it runs before/without the other pieces):
# bad input (missing and malformed site files, an unknown partition, an
# unknown job, an existing campaign) gives a clear message and exit 2 with
# nothing submitted; a heterogeneous job (layered) and a compute job
# (acceptance) run through submit / status (libslurm) / collect; a failing
# element is marked FAILED in the index with its reason, partial results
# kept, exit 1; --resume resubmits only the failed element.

set -uo pipefail
T=t50-campaign
# shellcheck source=tests/integration/t5x-lib.bash
source "$(dirname "$0")/t5x-lib.bash"
t5x_init

# A stub build tree: a benchmark that writes an HDF5 signature, a node tool,
# a report whose accept fails for the tier "Impossible".
stub=$WORK/stub
mkdir -p "$stub/mpibench" "$stub/spank" "$stub/report" "$stub/jobscripts"
ln -s "$CAMPAIGN" "$stub/jobscripts/iostrata-campaign"
cat >"$stub/mpibench/iostrata-bench" <<'STUB'
#!/bin/bash
out=; for a; do case $a in --output=*) out=${a#--output=} ;; esac; done
[[ ${SLURM_PROCID:-0} == 0 ]] && printf '\x89HDF\r\n\x1a\nstub' >"$out"
exit 0
STUB
cat >"$stub/spank/iostrata-node" <<'STUB'
#!/bin/bash
echo '{"node":"'"${SLURMD_NODENAME:-?}"'","applied":{"cpus_online":2}}'
STUB
cat >"$stub/report/iostrata-report" <<'STUB'
#!/bin/bash
echo "stub report $*"
[[ "$*" == *Impossible* ]] && exit 1
exit 0
STUB
chmod +x "$stub"/*/iostrata-*

# a floor every site meets and a tier nobody meets
cat >"$WORK/tiers.conf" <<'TIERS'
[tier "Floor"]
seq_read_bw = 1K
seq_write_bw = 1K
rand_read_iops = 1
rand_write_iops = 1
[tier "Impossible"]
seq_read_bw = 1000GB
seq_write_bw = 1000GB
rand_read_iops = 1000000000
rand_write_iops = 1000000000
TIERS
site=$WORK/site/site.conf
t5x_site "$site" accept.tiers="$WORK/tiers.conf" accept.tier=Floor

expect() { # expect RC "substring" CMD...: exit code and message
	local want=$1 sub=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	[[ $rc -eq $want ]] || t5x_fail "'$*' exited $rc, want $want: $out"
	[[ $out == *"$sub"* ]] || t5x_fail "'$*' said \"$out\", want \"$sub\""
}

t5x_log "bad input"
expect 2 "No such file or directory" "$CAMPAIGN" submit "$WORK/nope" acceptance
printf '[site]\nname = x\nbogus line\n' >"$WORK/bad.conf"
expect 2 "bad.conf:3: malformed line" "$CAMPAIGN" submit "$WORK/bad.conf" acceptance
printf '[storage]\ndisk_bw = 10 parsecs\n' >"$WORK/bad.conf"
expect 2 "bad.conf:2:" "$CAMPAIGN" status "$WORK/bad.conf" sweep-disk-bw
t5x_site "$WORK/badpart/site.conf" compute.partition=nosuchpart
expect 2 'partition "nosuchpart": no such partition' "$CAMPAIGN" submit "$WORK/badpart/site.conf" acceptance
[[ ! -e $WORK/campaigns/local-acceptance/elements.tsv ]] || t5x_fail "a refused submit left a campaign behind"
expect 2 'unknown job' "$CAMPAIGN" submit "$site" sweep-everything
expect 2 'no campaign here' "$CAMPAIGN" status "$site" layered
expect 2 'no such key' "$CAMPAIGN" getvar "$site" workload.nope
expect 0 '64M' "$CAMPAIGN" getvar "$site" workload.file_size
n=$("$CAMPAIGN" plan "$site" sweep-cores-mem | wc -l)
[[ $n -eq 4 ]] || t5x_fail "plan sweep-cores-mem: $n elements, want 4"

t5x_log "heterogeneous job (layered) and compute job (acceptance) through the stub"
export IOSTRATA_BUILD_DIR=$stub
"$CAMPAIGN" submit "$site" layered || t5x_fail "submit layered failed"
expect 2 "already exists" "$CAMPAIGN" submit "$site" layered
IOSTRATA_TIER=Impossible "$CAMPAIGN" submit "$site" acceptance ||
	t5x_fail "submit acceptance failed"
t5x_wait "$site" layered 120
rc=$?
[[ $rc -eq 0 ]] || t5x_fail "layered: status exit $rc, want 0"
grep -q "storage n1 compute n\[2-3\]" "$WORK"/campaigns/local-layered/elements/0/slurm-*.out ||
	t5x_fail "layered did not run as storage n1 + compute n2,n3: $(cat "$WORK"/campaigns/local-layered/elements/0/slurm-*.out)"
[[ -s $WORK/campaigns/local-layered/elements/0/storage-before-n1.json ]] ||
	t5x_fail "no storage-node state recorded before the run"
"$CAMPAIGN" collect "$site" layered || t5x_fail "collect layered: exit $?"
[[ -L $WORK/campaigns/local-layered/results/000-layered-layered.h5 ]] ||
	t5x_fail "collect did not link the results file"

# Issue 11: a group-writable campaign directory where user nobody replaced
# the files collect and submit write, and their old temporary names, with
# symlinks to a root-owned victim (elements.tsv, which both also read, only
# at its temporary name): root's collect and submit --resume follow none
# of them; the index and elements files are regular files.
t5x_log "symlinks planted in a shared campaign directory are not followed"
cdir=$WORK/campaigns/local-layered
victim=$WORK/victim
printf 'precious root-owned content\n' >"$victim"
chmod 600 "$victim"
chmod 777 "$cdir"
planted=(index.tsv index.json .index.tsv.tmp .index.json.tmp .elements.tsv.tmp)
setpriv --reuid=65534 --regid=65534 --clear-groups bash -c '
	cd "$1" || exit 1
	v=$2
	shift 2
	for n; do rm -f -- "$n" && ln -s "$v" "$n" || exit 1; done' \
	plant "$cdir" "$victim" "${planted[@]}" ||
	t5x_fail "nobody could not plant symlinks in $cdir"
"$CAMPAIGN" collect "$site" layered >"$WORK/collect-planted.txt" 2>&1 ||
	t5x_fail "collect with planted symlinks: exit $?: $(cat "$WORK/collect-planted.txt")"
"$CAMPAIGN" submit "$site" layered --resume >"$WORK/resume-planted.txt" 2>&1 ||
	t5x_fail "submit --resume with planted symlinks: exit $?: $(cat "$WORK/resume-planted.txt")"
[[ $(cat "$victim") == "precious root-owned content" ]] ||
	t5x_fail "a planted symlink was followed: the victim now holds $(head -c 200 "$victim" | tr '\n' ' ')"
for n in index.tsv index.json elements.tsv; do
	[[ -f $cdir/$n && ! -L $cdir/$n ]] || t5x_fail "$cdir/$n is not a regular file after collect/submit"
done
grep -q '^0	layered	' "$cdir/elements.tsv" || t5x_fail "elements.tsv lost its element: $(cat "$cdir/elements.tsv")"
chmod 755 "$cdir"

t5x_wait "$site" acceptance 120
rc=$?
[[ $rc -eq 1 ]] || t5x_fail "acceptance vs an impossible tier: status exit $rc, want 1"
grep -q 'FAILED.*tier "Impossible"' "$WORK/status-acceptance.txt" ||
	t5x_fail "status does not say why the element failed"
IOSTRATA_TIER="No Such Tier" "$CAMPAIGN" submit "$site" acceptance --campaign="$WORK/notier" >/dev/null ||
	t5x_fail "submit acceptance (unknown tier) failed"
"$CAMPAIGN" status "$site" acceptance --campaign="$WORK/notier" --wait=60 >"$WORK/notier.txt"
grep -q 'FAILED.*tier "No Such Tier" has no seq_read_bw' "$WORK/notier.txt" ||
	t5x_fail "an unknown tier is not reported clearly: $(cat "$WORK/notier.txt")"
"$CAMPAIGN" collect "$site" acceptance >"$WORK/collect.txt" 2>&1
rc=$?
[[ $rc -eq 1 ]] || t5x_fail "collect with a failed element: exit $rc, want 1"
grep -q "partial results kept" "$WORK/collect.txt" || t5x_fail "collect: no clear message: $(cat "$WORK/collect.txt")"
[[ -n $(awk -F'\t' '$7 == "FAILED" && $9 ~ /Impossible/' "$WORK/campaigns/local-acceptance/index.tsv") ]] ||
	t5x_fail "index.tsv does not mark the failed element: $(cat "$WORK/campaigns/local-acceptance/index.tsv")"
ls "$WORK"/campaigns/local-acceptance/elements/0/accept-*.h5 >/dev/null 2>&1 ||
	t5x_fail "the failed element's partial results were not kept"

t5x_log "--resume resubmits the failed element only"
[[ $("$CAMPAIGN" submit "$site" layered --resume) == *"0 element(s) submitted"* ]] ||
	t5x_fail "resume of a finished campaign resubmitted something"
[[ $("$CAMPAIGN" submit "$site" acceptance --resume) == *"1 element(s) submitted"* ]] ||
	t5x_fail "resume did not resubmit the failed element"
t5x_wait "$site" acceptance 120
[[ $? -eq 0 ]] || t5x_fail "resubmitted acceptance (tier from the site) did not succeed"
t5x_log "PASS"
