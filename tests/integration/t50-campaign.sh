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
# kept, exit 1; --resume resubmits only the failed element; an element
# that ran to its end with a tier not met is DONE (FAIL: N of M metrics),
# status exit 4.  `status
# --wait` prints each state change as a line (not a terminal: nothing
# else), and on a terminal also the live line with its estimate.

set -uo pipefail
T=t50-campaign
# shellcheck source=tests/integration/t5x-lib.bash
source "$(dirname "$0")/t5x-lib.bash"
t5x_init

# A stub build tree: a benchmark that writes an HDF5 signature, a node tool,
# a report whose accept fails for the tier "Impossible".
stub=$work/stub
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
# the tier "Unmet": a real verdict (accept.json as iostrata-report
# accept --format=json writes it: 2 rows, 1 FAIL, exit 1)
if [[ "$*" == *Unmet* ]]; then
	if [[ "$*" == *--format=json* ]]; then
		echo '{"tiers": [{"tier": "Unmet", "verdict": "FAIL", "rows": [{"result": "PASS"}, {"result": "FAIL"}]}], "exit": 1}'
	else
		echo "stub report $*"
	fi
	exit 1
fi
echo "stub report $*"
[[ "$*" == *Impossible* ]] && exit 1
exit 0
STUB
chmod +x "$stub"/*/iostrata-*

# a floor every site meets and a tier nobody meets
t5x_tiers "$work/tiers.conf" 1K
printf '[tier "Unmet"]\nseq_read_bw = 1000GB\n' >>"$work/tiers.conf"
site=$work/site/site.conf
t5x_site "$site" accept.tiers="$work/tiers.conf" accept.tier=Floor

expect() { # expect RC "substring" CMD...: exit code and message
	local want=$1 sub=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	[[ $rc -eq $want ]] || fail "'$*' exited $rc, want $want: $out"
	[[ $out == *"$sub"* ]] || fail "'$*' said \"$out\", want \"$sub\""
}

log "bad input"
expect 2 "No such file or directory" "$CAMPAIGN" submit "$work/nope" acceptance
printf '[site]\nname = x\nbogus line\n' >"$work/bad.conf"
expect 2 "bad.conf:3: malformed line" "$CAMPAIGN" submit "$work/bad.conf" acceptance
printf '[storage]\ndisk_bw = 10 parsecs\n' >"$work/bad.conf"
expect 2 "bad.conf:2:" "$CAMPAIGN" status "$work/bad.conf" sweep-disk-bw
t5x_site "$work/badpart/site.conf" compute.partition=nosuchpart
expect 2 'partition "nosuchpart": no such partition' "$CAMPAIGN" submit "$work/badpart/site.conf" acceptance
[[ ! -e $work/campaigns/local-acceptance/elements.tsv ]] || fail "a refused submit left a campaign behind"
expect 2 'unknown job' "$CAMPAIGN" submit "$site" sweep-everything
expect 2 'no campaign here' "$CAMPAIGN" status "$site" layered
expect 2 'no such key' "$CAMPAIGN" getvar "$site" workload.nope
expect 0 '64M' "$CAMPAIGN" getvar "$site" workload.file_size
n=$("$CAMPAIGN" plan "$site" sweep-cores-mem | cut -f2 | paste -sd' ')
[[ $n == "baseline-first cpus1-mem20G cpus1-mem23G cpus2-mem20G cpus2-mem23G baseline-last" ]] ||
	fail "plan sweep-cores-mem: \"$n\", want the 4 configurations between the baseline, first and last"

log "heterogeneous job (layered) and compute job (acceptance) through the stub"
export IOSTRATA_BUILD_DIR=$stub
"$CAMPAIGN" submit "$site" layered || fail "submit layered failed"
expect 2 "already exists" "$CAMPAIGN" submit "$site" layered
IOSTRATA_TIER=Impossible "$CAMPAIGN" submit "$site" acceptance ||
	fail "submit acceptance failed"
t5x_wait "$site" layered 120
rc=$?
[[ $rc -eq 0 ]] || fail "layered: status exit $rc, want 0"
# issue 17: the wait shows each change (time, label, old -> new, job id)
change='^[0-9]{2}:[0-9]{2}:[0-9]{2} layered (PENDING|RUNNING) -> DONE, job [0-9]+$'
grep -Eq "$change" "$work/status-layered.txt" ||
	fail "status --wait printed no change line ending in DONE: $(cat "$work/status-layered.txt")"
! grep -q $'\r\|elapsed' "$work/status-layered.txt" ||
	fail "status --wait drew its live line into a file: $(cat -A "$work/status-layered.txt")"
grep -q "storage s1 compute c\[1-2\]" "$work"/campaigns/local-layered/elements/0/slurm-*.out ||
	fail "layered did not run as storage s1 + compute c1,c2: $(cat "$work"/campaigns/local-layered/elements/0/slurm-*.out)"
[[ -s $work/campaigns/local-layered/elements/0/storage-before-s1.json ]] ||
	fail "no storage-node state recorded before the run"
"$CAMPAIGN" collect "$site" layered || fail "collect layered: exit $?"
[[ -L $work/campaigns/local-layered/results/000-layered-layered.h5 ]] ||
	fail "collect did not link the results file"

# Issue 11: a group-writable campaign directory (group nogroup, so user
# nobody may write it) where nobody replaced the files collect and submit
# write, and their old temporary names, with symlinks to a root-owned
# victim (elements.tsv, which both also read, only at its temporary name):
# root's collect and submit --resume follow none of them; the index and
# elements files are regular files.
log "symlinks planted in a shared campaign directory are not followed"
cdir=$work/campaigns/local-layered
victim=$work/victim
printf 'precious root-owned content\n' >"$victim"
chmod 600 "$victim"
chgrp "$(id -g nobody)" "$cdir"
chmod 775 "$cdir"
planted=(index.tsv index.json .index.tsv.tmp .index.json.tmp .elements.tsv.tmp)
as_user nobody bash -c '
	cd "$1" || exit 1
	v=$2
	shift 2
	for n; do rm -f -- "$n" && ln -s "$v" "$n" || exit 1; done' \
	plant "$cdir" "$victim" "${planted[@]}" ||
	fail "nobody could not plant symlinks in $cdir"
"$CAMPAIGN" collect "$site" layered >"$work/collect-planted.txt" 2>&1 ||
	fail "collect with planted symlinks: exit $?: $(cat "$work/collect-planted.txt")"
"$CAMPAIGN" submit "$site" layered --resume >"$work/resume-planted.txt" 2>&1 ||
	fail "submit --resume with planted symlinks: exit $?: $(cat "$work/resume-planted.txt")"
[[ $(cat "$victim") == "precious root-owned content" ]] ||
	fail "a planted symlink was followed: the victim now holds $(head -c 200 "$victim" | tr '\n' ' ')"
for n in index.tsv index.json elements.tsv; do
	[[ -f $cdir/$n && ! -L $cdir/$n ]] || fail "$cdir/$n is not a regular file after collect/submit"
done
grep -q '^0	layered	' "$cdir/elements.tsv" || fail "elements.tsv lost its element: $(cat "$cdir/elements.tsv")"
# World-writable, anyone could have planted its records (replication.tsv,
# datasets.tsv: what clean removes): refused before any is read.
chmod 777 "$cdir"
for cmd in collect status clean; do
	"$CAMPAIGN" "$cmd" "$site" layered >"$work/open-$cmd.txt" 2>&1
	rc=$?
	[[ $rc -eq 2 ]] && grep -q "campaign directory $cdir is writable by others (mode 0777): refused" "$work/open-$cmd.txt" ||
		fail "$cmd on a world-writable campaign directory: exit $rc (want 2, refused): $(cat "$work/open-$cmd.txt")"
done
[[ $(cat "$victim") == "precious root-owned content" ]] || fail "the victim changed"
chmod 755 "$cdir"
chgrp "$(id -g)" "$cdir"

t5x_wait "$site" acceptance 120
rc=$?
[[ $rc -eq 1 ]] || fail "acceptance vs an impossible tier: status exit $rc, want 1"
grep -q 'FAILED.*tier "Impossible"' "$work/status-acceptance.txt" ||
	fail "status does not say why the element failed"
IOSTRATA_TIER="No Such Tier" "$CAMPAIGN" submit "$site" acceptance --campaign="$work/notier" >/dev/null ||
	fail "submit acceptance (unknown tier) failed"
"$CAMPAIGN" status "$site" acceptance --campaign="$work/notier" --wait=60 >"$work/notier.txt"
grep -q 'FAILED.*tier "No Such Tier" has no seq_read_bw' "$work/notier.txt" ||
	fail "an unknown tier is not reported clearly: $(cat "$work/notier.txt")"
# (waited on right after its submit: seen before it ended)
grep -Eq '^[0-9:]{8} acceptance (PENDING|RUNNING) -> FAILED, job [0-9]+: .*tier "No Such Tier"' \
	"$work/notier.txt" || fail "the change line of the failed element has no reason: $(cat "$work/notier.txt")"
# a tier not met by a job that ran to its end (its accept.json says FAIL)
# is a verdict, not a failed job: DONE (FAIL: ...), status exit 4
IOSTRATA_TIER=Unmet "$CAMPAIGN" submit "$site" acceptance --campaign="$work/unmet" >/dev/null ||
	fail "submit acceptance (tier Unmet) failed"
"$CAMPAIGN" status "$site" acceptance --campaign="$work/unmet" --wait=120 >"$work/unmet.txt"
rc=$?
[[ $rc -eq 4 ]] || fail "acceptance with a verdict not met: status exit $rc, want 4: $(cat "$work/unmet.txt")"
grep -q 'DONE (FAIL: 1 of 2 metrics)' "$work/unmet.txt" ||
	fail "a verdict not met is not shown as DONE (FAIL: 1 of 2 metrics): $(cat "$work/unmet.txt")"
grep -q 'FAILED' "$work/unmet.txt" && fail "a verdict not met is shown as FAILED: $(cat "$work/unmet.txt")"
"$CAMPAIGN" collect "$site" acceptance >"$work/collect.txt" 2>&1
rc=$?
[[ $rc -eq 1 ]] || fail "collect with a failed element: exit $rc, want 1"
grep -q "partial results kept" "$work/collect.txt" || fail "collect: no clear message: $(cat "$work/collect.txt")"
[[ -n $(awk -F'\t' '$7 == "FAILED" && $9 ~ /Impossible/' "$work/campaigns/local-acceptance/index.tsv") ]] ||
	fail "index.tsv does not mark the failed element: $(cat "$work/campaigns/local-acceptance/index.tsv")"
ls "$work"/campaigns/local-acceptance/elements/0/accept-*.h5 >/dev/null 2>&1 ||
	fail "the failed element's partial results were not kept"

log "--resume resubmits the failed element only"
[[ $("$CAMPAIGN" submit "$site" layered --resume) == *"0 element(s) submitted"* ]] ||
	fail "resume of a finished campaign resubmitted something"
[[ $("$CAMPAIGN" submit "$site" acceptance --resume) == *"1 element(s) submitted"* ]] ||
	fail "resume did not resubmit the failed element"
# on a terminal (script(1) gives it a pty): the live line, updated in
# place, before any element is done
script -qfec "$CAMPAIGN status $site acceptance --wait=120" "$work/status-tty.txt" >/dev/null
[[ $? -eq 0 ]] || fail "resubmitted acceptance (tier from the site) did not succeed: $(cat -A "$work/status-tty.txt")"
grep -q $'\rdone 0/1, running [01], pending [01], failed 0; elapsed [0-9]*s; estimate after the first element' \
	"$work/status-tty.txt" || fail "no live line on a terminal: $(cat -A "$work/status-tty.txt")"
grep -Eq 'acceptance (PENDING|RUNNING) -> DONE, job [0-9]+' "$work/status-tty.txt" ||
	fail "no change line on a terminal: $(cat -A "$work/status-tty.txt")"
log "PASS"
