# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# iostrata-jobs.sh: shell helpers sourced by the iostrata job scripts
# (jobscripts/*.sbatch).  Not a program: `source` it.  It reads the site
# description through `iostrata-campaign env` (no INI parsing in bash), finds
# the iostrata binaries, records the storage nodes' state, and writes the
# element's verdict (ELEMENT_DIR/status: "ok" or the reason) on exit, which is
# what `iostrata-campaign status/collect` read once Slurm forgot the job.
#
# Inputs (environment; iostrata-campaign sets them, set them yourself when
# you sbatch a script by hand):
#   IOSTRATA_SITE          site description (site.conf or its directory)
#   IOSTRATA_ELEMENT_DIR   where results go (default: ./iostrata-<jobid>);
#                          made 0700 by the job, or used only when it is the
#                          user's own, not a link, and group and others
#                          cannot write it (ios_dir_check)
#   IOSTRATA_CAMPAIGN_DIR  the campaign's directory (iostrata-campaign sets
#                          it): used only when it is the user's own, not a
#                          link, and others cannot write it (a team's 2770
#                          is accepted, as iostrata-campaign does)
#   IOSTRATA_ELEMENT_LABEL name of this element (default: the job name)
#   IOSTRATA_BUILD_DIR     optional: use binaries from this build tree

IOS_FAIL_REASON=
IOS_JOB=${IOS_JOB:-iostrata}

ios_msg() { printf '%s: %s %s\n' "$IOS_JOB" "$(date +%T)" "$*"; }
ios_warn() { printf '%s: warning: %s\n' "$IOS_JOB" "$*" >&2; }

# Record why the element failed (first reason wins) and exit non-zero.
ios_fail() {
	printf '%s: error: %s\n' "$IOS_JOB" "$*" >&2
	[[ -n $IOS_FAIL_REASON ]] || IOS_FAIL_REASON=$*
	exit 1
}

# Remember a failure but keep going (later steps still produce data).
ios_soft_fail() {
	printf '%s: error: %s\n' "$IOS_JOB" "$*" >&2
	[[ -n $IOS_FAIL_REASON ]] || IOS_FAIL_REASON=$*
}

ios_on_exit() {
	local rc=$?
	if [[ -z $IOS_FAIL_REASON && $rc -ne 0 ]]; then
		IOS_FAIL_REASON="job script exited with status $rc"
	fi
	ios_noscrub_release
	ios_dataset_unlock
	ios_timing_write
	# only into the element directory ios_init checked (or made): a
	# refused one gets nothing, not even the verdict
	if [[ -n ${IOS_EDIR_OK:-} ]]; then
		if [[ -z $IOS_FAIL_REASON ]]; then
			echo ok | ios_put "$IOS_EDIR/status"
		else
			printf 'failed: %s\n' "$IOS_FAIL_REASON" | ios_put "$IOS_EDIR/status"
		fi
	fi
	[[ -z $IOS_FAIL_REASON ]] || exit 1
	exit "$rc"
}

# ios_put FILE: standard input into FILE through a new name in FILE's
# directory (mktemp: made exclusively, never through a link) renamed over
# FILE (a rename replaces a link planted at FILE, never follows it); mode
# as the umask gives.  Non-zero when it could not.
ios_put() {
	local t
	t=$(mktemp -- "$1.XXXXXX") || return 1
	if cat >"$t" && chmod "$(printf %o $((0666 & ~8#$(umask))))" -- "$t" && mv -f -T -- "$t" "$1"; then
		return 0
	fi
	rm -f -- "$t"
	return 1
}

# ios_dir_check [-g] DIR...: each DIR made (mode 0700, its missing parents
# as mkdir -p) or, when it is there already, accepted only as a directory
# (not a symlink) of this user that neither its group nor others can
# write.  With -g, a campaign directory: not made (iostrata-campaign made
# it), and its group may write it (a team's 2770 directory, as
# iostrata-campaign accepts one), others not.  A stranger who made such a
# directory first (job ids are sequential and visible, nightly-health's
# names are fixed), or can write it, could plant links at the names the
# job writes (the exit's status and timing, acceptance's reports and fio
# file, the layout probe), which bash, fio and python follow with the
# user's rights.  Prints why not and returns 1 at the first one refused.
# One function for both sides: ios_own_dirs_here runs it on the batch host,
# ios_own_dirs on the compute side (its text, through ios_on_compute).
ios_dir_check() {
	local d u m me mask=022 make=1 who="its group or by others" w=go
	if [[ ${1:-} == -g ]]; then
		mask=002 make='' who=others w=o
		shift
	fi
	me=$(id -u)
	for d; do
		if [[ -n $make ]]; then
			mkdir -p -- "$(dirname -- "$d")" 2>/dev/null
			# made here: 0700 (chmod too: a default ACL may have widened it)
			mkdir -m 700 -- "$d" 2>/dev/null && chmod 700 -- "$d"
		fi
		if [[ -L $d || ! -d $d ]]; then
			echo "$d is not a directory (a symlink, or missing${make:+: cannot create it}): refused (accepted: a directory of yours that ${who/by /} cannot write${make:+, or none: the job makes it})"
			return 1
		fi
		read -r u m < <(stat -c "%u %a" -- "$d")
		if [[ $u != "$me" ]]; then
			echo "$d belongs to uid $u, not to the user running the job (uid $me): refused, as anyone who made it could have planted links in it (accepted: a directory of yours that ${who/by /} cannot write; remove it or choose another)"
			return 1
		fi
		if (((8#$m & 8#$mask) != 0)); then
			echo "$d is writable by $who (mode $m): refused, as they could plant links in it (chmod $w-w it, or remove it)"
			return 1
		fi
	done
}

# ios_own_dirs_here WHAT [-g] DIR...: ios_dir_check on the batch host; a
# refused directory fails the element with "WHAT: DIR ... why".
ios_own_dirs_here() {
	local what=$1 why
	shift
	why=$(ios_dir_check "$@" 2>&1) || ios_fail "$what: ${why:-cannot create or check $*}"
}

# ios_lock_open VAR FILE: VAR gets a descriptor (read-only: flock needs no
# more) on the lock file FILE in a campaign directory, which a group member
# may write: made by a hard link from a new mktemp name (never through a
# planted link), and opened only as a regular file, the one at FILE when
# checked.  Non-zero with the reason in IOS_WHY.
ios_lock_open() {
	local f=$2 t='' fd
	IOS_WHY=
	if [[ ! -e $f && ! -L $f ]]; then
		t=$(mktemp -- "$f.XXXXXX") && ln -- "$t" "$f" 2>/dev/null
		[[ -z $t ]] || rm -f -- "$t"
	fi
	if [[ -L $f || ! -f $f ]]; then
		IOS_WHY="$f is not a regular file (a symlink?): refused (accepted: a file made by the campaign's jobs; remove it)"
		return 1
	fi
	if ! exec {fd}<"$f"; then
		IOS_WHY="cannot open $f"
		return 1
	fi
	if [[ $(stat -L -c %d:%i "/dev/fd/$fd") != "$(stat -c %d:%i -- "$f")" ]]; then
		exec {fd}<&-
		IOS_WHY="$f was replaced while it was opened: refused"
		return 1
	fi
	printf -v "$1" %s "$fd"
}

# ios_plain FILE: FILE is not a symlink, and a regular file or absent (a
# campaign record read and rewritten: never through a planted link).
ios_plain() { [[ ! -L $1 && (-f $1 || ! -e $1) ]]; }

# Path of an iostrata binary: the build tree when IOSTRATA_BUILD_DIR is set,
# else PATH.
ios_tool() {
	local name=$1 sub=$2
	if [[ -n ${IOSTRATA_BUILD_DIR:-} && -x $IOSTRATA_BUILD_DIR/$sub/$name ]]; then
		echo "$IOSTRATA_BUILD_DIR/$sub/$name"
	elif command -v "$name" >/dev/null 2>&1; then
		command -v "$name"
	else
		echo "$name"
	fi
}

# ios_init JOBNAME: common start of every job script.
ios_init() {
	IOS_JOB=$1
	IOS_T0=$(date +%s.%N) IOS_MEASURED_S=0
	set -uo pipefail
	trap ios_on_exit EXIT
	# scancel and the time limit send SIGTERM first: the exit path (the
	# status file, scrubbing back on) runs then
	trap 'IOS_FAIL_REASON=${IOS_FAIL_REASON:-"ended by SIGTERM (cancelled or out of time)"}; exit 143' TERM
	CAMPAIGN=$(ios_tool iostrata-campaign jobscripts)
	BENCH=$(ios_tool iostrata-bench mpibench)
	NODE=$(ios_tool iostrata-node spank)
	FACTS=$(ios_tool iostrata-facts facts)
	# shellcheck disable=SC2034 # used by the job scripts
	REPORT=$(ios_tool iostrata-report report)
	IOS_EDIR=${IOSTRATA_ELEMENT_DIR:-$PWD/iostrata-${SLURM_JOB_ID:-$$}} IOS_EDIR_OK=
	IOS_LABEL=${IOSTRATA_ELEMENT_LABEL:-$IOS_JOB}
	# the campaign's directory (locks, noscrub.state, datasets.tsv) and the
	# element's, checked before anything is written into either
	IOS_CAMP=
	if [[ -n ${IOSTRATA_CAMPAIGN_DIR:-} && (-e $IOSTRATA_CAMPAIGN_DIR || -L $IOSTRATA_CAMPAIGN_DIR) ]]; then
		ios_own_dirs_here "campaign directory" -g "$IOSTRATA_CAMPAIGN_DIR"
		IOS_CAMP=$IOSTRATA_CAMPAIGN_DIR
	fi
	ios_own_dirs_here "element directory" "$IOS_EDIR"
	IOS_EDIR_OK=1
	rm -f "$IOS_EDIR/status"
	[[ -n ${IOSTRATA_SITE:-} ]] ||
		ios_fail "IOSTRATA_SITE is not set: export IOSTRATA_SITE=<site dir or site.conf> (iostrata-campaign sets it)"
	local envtext
	envtext=$("$CAMPAIGN" env "$IOSTRATA_SITE") ||
		ios_fail "cannot read site description $IOSTRATA_SITE (see the message above)"
	eval "$envtext"
	IOS_MPI=${IOS_SLURM_MPI:-pmix}
	# Open MPI 4.x adds peers lazily by default (mpi_add_procs_cutoff 0):
	# a TCP connection from a peer not yet added races with its setup
	# (open-mpi/ompi#3035: dropped connection, hang, or a crash at the
	# first message, more often under load).  Every peer set up inside
	# MPI_Init instead, outside any measurement; a site's own value wins.
	export OMPI_MCA_mpi_add_procs_cutoff=${OMPI_MCA_mpi_add_procs_cutoff:-1048576}
	IOS_WDIR=${IOS_WORKLOAD_DIR:?[workload] dir is not set in $IOS_SITE_FILE}/${SLURM_JOB_ID:-$$}
	# [sweep] replication: this element's factor runs in the directory
	# whose layout points at its pool (iostrata-campaign made or chose it)
	[[ -n ${IOSTRATA_REPLICATION_DIR:-} ]] && IOS_WDIR=$IOSTRATA_REPLICATION_DIR/${SLURM_JOB_ID:-$$}
	ios_msg "site ${IOS_SITE_NAME:-?} ($IOS_SITE_FILE), element $IOS_LABEL, results in $IOS_EDIR"
	# which het component is which, by partition; where both are in one
	# partition, the order iostrata-campaign and layered.sbatch's header
	# use: compute first (Slurm 22.05's pmix fails a step over both
	# components when the first one's node names sort after the second's)
	IOS_STORAGE_GROUP=1 IOS_COMPUTE_GROUP=0
	if [[ -n ${SLURM_HET_SIZE:-} && -n ${IOS_STORAGE_PARTITION:-} &&
		${SLURM_JOB_PARTITION_HET_GROUP_0:-} == "$IOS_STORAGE_PARTITION" &&
		${SLURM_JOB_PARTITION_HET_GROUP_1:-} != "$IOS_STORAGE_PARTITION" ]]; then
		IOS_STORAGE_GROUP=0 IOS_COMPUTE_GROUP=1
	fi
	local sn=SLURM_JOB_NODELIST_HET_GROUP_$IOS_STORAGE_GROUP cn=SLURM_JOB_NODELIST_HET_GROUP_$IOS_COMPUTE_GROUP
	ios_msg "job ${SLURM_JOB_ID:-none}: storage ${!sn:-${SLURM_JOB_NODELIST:-?}} compute ${!cn:-${SLURM_JOB_NODELIST:-?}}"
}

# ios_per_node G: srun's arguments for one task on each node of het group
# G: --ntasks-per-node=1 alone is ignored when the component has more
# tasks than nodes ("can't honor --ntasks-per-node set to 1 which doesn't
# match the requested tasks 6 with the number of requested nodes 2"): the
# step inherits the component's task count, and every rank of a 64-rank
# node ran the command (at 2 x 64 ranks, 128 iostrata-facts racing on two
# files).  The node count from Slurm's SLURM_JOB_NUM_NODES_HET_GROUP_G.
ios_per_node() {
	local v=SLURM_JOB_NUM_NODES_HET_GROUP_$1
	printf '%s\n' --het-group="$1" --ntasks-per-node=1
	[[ ${!v:-} =~ ^[1-9][0-9]*$ ]] && printf '%s\n' --nodes="${!v}" --ntasks="${!v}"
	return 0
}

# Run on every node of a heterogeneous job's storage component.
ios_on_storage() {
	local a
	mapfile -t a < <(ios_per_node "${IOS_STORAGE_GROUP:-1}")
	srun "${a[@]}" --kill-on-bad-exit=1 "$@"
}

# ---- scrubbing off for a campaign ([sweep] noscrub = 1) ----------------
# As the paper did: `ceph osd set noscrub` and `nodeep-scrub` from the
# first element's start to the last one's end, so no scrub competes with a
# measurement.  The campaign directory holds the state, under flock:
# noscrub.state lists the flags this campaign set ("set FLAG"; a flag that
# was already set is left alone, and stays set) and the elements running
# ("holder JOBID").  An element's exit removes its holder; the flags go
# back when no holder is left and no other element of the campaign is
# still queued or running (a holder whose job is gone, killed without its
# exit path, is dropped then too).  Needs a Ceph client allowed to set OSD
# flags (mon 'allow rw' or the admin key) where the batch script runs.
IOS_NOSCRUB_HELD=
IOS_NOSCRUB_ATTACH=()

ios_ceph() { timeout 60 ceph --connect-timeout 30 "$@"; }

# Job ids of the campaign's elements still queued or running, but this job.
ios_campaign_busy() {
	local ids
	ids=$(awk -F'\t' '!/^#/ && $3 ~ /^[0-9]+$/ { print $3 }' "$IOS_CAMP/elements.tsv" 2>/dev/null |
		grep -vx "${SLURM_JOB_ID:-none}" | paste -sd,)
	[[ -n $ids ]] || return 0
	# a heterogeneous job's components have ids of their own: its leader's
	squeue -h -j "$ids" -o '%F %A' 2>/dev/null |
		awk '{ print ($1 ~ /^[1-9][0-9]*$/) ? $1 : $2 }' | sort -u | grep -vx "${SLURM_JOB_ID:-none}"
}

# Holders of STATE whose job is still there.
ios_noscrub_live() {
	local id
	for id in $(sed -n 's/^holder \([0-9][0-9]*\)$/\1/p' "$1" 2>/dev/null); do
		[[ $id == "${SLURM_JOB_ID:-}" || -n $(squeue -h -j "$id" -o %A 2>/dev/null) ]] && echo "$id"
	done
}

# ios_noscrub_holders STATE JOBID...: STATE's holders replaced by JOBIDs
# (its flag lines kept), through a new name (ios_put).
ios_noscrub_holders() {
	local st=$1 id
	shift
	{
		grep -v '^holder ' "$st"
		for id; do echo "holder $id"; done
	} | sort -u | ios_put "$st"
}

# ios_noscrub_hold: at the start of every campaign job script, sweeps,
# layered, acceptance and threads alike (not in a subshell: it keeps the
# lock's descriptor); IOS_NOSCRUB_ATTACH gets the --attach of the record,
# which ios_bench adds to every run (a script running iostrata-bench
# itself adds "${IOS_NOSCRUB_ATTACH[@]}").
ios_noscrub_hold() {
	IOS_NOSCRUB_ATTACH=()
	[[ ${IOS_SWEEP_NOSCRUB:-0} == 1 ]] || return 0
	local camp=${IOS_CAMP:-} st flags f set=() out lines=
	[[ -n $camp ]] || { ios_warn "[sweep] noscrub = 1 needs a campaign (IOSTRATA_CAMPAIGN_DIR): scrubbing left as it is"; return 0; }
	st=$camp/noscrub.state
	ios_plain "$st" || { ios_soft_fail "[sweep] noscrub: $st is not a regular file (a symlink?): refused, scrubbing left as it is"; return 0; }
	ios_lock_open IOS_NOSCRUB_FD "$camp/noscrub.lock" ||
		{ ios_soft_fail "[sweep] noscrub: $IOS_WHY: scrubbing left as it is"; return 0; }
	flock "$IOS_NOSCRUB_FD"
	if [[ ! -s $st ]]; then
		flags=$(ios_ceph osd dump -f json | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin).get("flags", ""))') ||
			{ flock -u "$IOS_NOSCRUB_FD"; ios_soft_fail "[sweep] noscrub: ceph osd dump failed: scrubbing not switched off"; return 0; }
		for f in noscrub nodeep-scrub; do
			if [[ ,$flags, == *,$f,* ]]; then
				lines+="found $f"$'\n'
			elif ios_ceph osd set "$f" >&2; then
				lines+="set $f"$'\n'
			else
				ios_soft_fail "[sweep] noscrub: ceph osd set $f failed"
			fi
		done
		printf %s "$lines" | ios_put "$st" || ios_soft_fail "[sweep] noscrub: cannot write $st"
	fi
	# shellcheck disable=SC2046 # one word per job id
	ios_noscrub_holders "$st" $(ios_noscrub_live "$st") "${SLURM_JOB_ID:-$$}"
	IOS_NOSCRUB_HELD=1
	mapfile -t set < <(ios_noscrub_flags "$st")
	out=$IOS_EDIR/noscrub.json
	/usr/bin/python3 - "$st" >"$out" <<'PY' || true
import json, sys
lines = [l.split() for l in open(sys.argv[1]) if l.strip()]
print(json.dumps({
    "set_by_campaign": [l[1] for l in lines if l[0] == "set"],
    "already_set": [l[1] for l in lines if l[0] == "found"],
    "holders": [l[1] for l in lines if l[0] == "holder"],
}))
PY
	flock -u "$IOS_NOSCRUB_FD"
	ios_msg "scrubbing off for the campaign (flags set by it: ${set[*]:-none})"
	IOS_NOSCRUB_ATTACH=(--attach=noscrub="$out")
}

# ios_noscrub_flags STATE: the flags STATE says the campaign set; only
# the two it may set (a record is not trusted to name others).
ios_noscrub_flags() {
	ios_plain "$1" && sed -n 's/^set \(noscrub\|nodeep-scrub\)$/\1/p' "$1"
}

# ios_noscrub_release: at the element's exit (ios_on_exit).
ios_noscrub_release() {
	[[ -n $IOS_NOSCRUB_HELD ]] || return 0
	IOS_NOSCRUB_HELD=
	local st=$IOS_CAMP/noscrub.state live f
	flock "$IOS_NOSCRUB_FD"
	live=$(ios_noscrub_live "$st" | grep -vx "${SLURM_JOB_ID:-$$}")
	if [[ -z $live && -z $(ios_campaign_busy) ]]; then
		for f in $(ios_noscrub_flags "$st"); do
			ios_ceph osd unset "$f" >&2 || ios_warn "[sweep] noscrub: ceph osd unset $f failed: set it back by hand"
		done
		rm -f "$st"
		ios_msg "scrubbing back on (the campaign's last element)"
	elif ios_plain "$st"; then
		# shellcheck disable=SC2086 # one word per job id
		ios_noscrub_holders "$st" $live
	fi
	flock -u "$IOS_NOSCRUB_FD"
}

# ---- replication factor ([sweep] replication) --------------------------
# ios_replication_record: the factor in effect, read back from the cluster
# before the run: the pool's size and min_size (ceph osd pool get, here)
# and the pool a new file in the benchmark directory lands in (its
# ceph.file.layout.pool, on the compute side), into
# $IOS_EDIR/replication.json; prints the --attach for it.  A pool whose
# size is not the factor asked for, or a directory whose files go to
# another pool, fails the element before any I/O.  Without
# IOSTRATA_REPLICATION: nothing.
ios_replication_record() {
	[[ -n ${IOSTRATA_REPLICATION:-} ]] || return 0
	local pool=${IOSTRATA_REPLICATION_POOL:?} out=$IOS_EDIR/replication.json sz msz lay
	sz=$(ios_ceph osd pool get "$pool" size -f json) ||
		ios_fail "replication $IOSTRATA_REPLICATION: ceph osd pool get $pool size failed"
	msz=$(ios_ceph osd pool get "$pool" min_size -f json) ||
		ios_fail "replication $IOSTRATA_REPLICATION: ceph osd pool get $pool min_size failed"
	ios_make_wdir >&2
	# shellcheck disable=SC2016
	lay=$(ios_on_compute /usr/bin/python3 -c 'import os, sys
p = os.path.join(sys.argv[1], ".iostrata-layout-probe")
open(p, "w").close()
try:
    print(os.getxattr(p, "ceph.file.layout.pool").decode())
finally:
    os.unlink(p)' "$IOS_WDIR") ||
		ios_fail "replication $IOSTRATA_REPLICATION: cannot read the layout pool of a file in $IOS_WDIR (not on CephFS?)"
	/usr/bin/python3 - "$IOSTRATA_REPLICATION" "$pool" "$sz" "$msz" "$IOSTRATA_REPLICATION_DIR" "$lay" >"$out" <<'PY' ||
import json, sys
want, pool, sz, msz, d, lay = sys.argv[1:7]
lay, pid = lay.strip(), json.loads(sz).get("pool_id")
rec = {"requested": int(want), "pool": pool,
       "size": json.loads(sz)["size"], "min_size": json.loads(msz)["min_size"],
       "dir": d, "file_layout_pool": lay}
# a client whose OSD map lacks a pool made a moment ago names it by its id
if lay.isdigit() and pid is not None and int(lay) == pid:
    rec["file_layout_pool"], rec["file_layout_pool_as_read"] = pool, lay
print(json.dumps(rec))
if rec["size"] != rec["requested"] or rec["file_layout_pool"] != pool:
    sys.exit(1)
PY
		ios_fail "replication $IOSTRATA_REPLICATION not in effect: $(cat "$out")"
	ios_msg "replication $IOSTRATA_REPLICATION: $(cat "$out")" >&2
	printf -- '--attach=replication=%s\n' "$out"
}

# ios_node_state TAG: `iostrata-node status --json` on each storage node into
# $IOS_EDIR/storage-TAG-<node>.json (with the site's [storage] policy and
# state_dir), and for TAG "before" also the plugin's per-job applied file
# ($IOSTRATA_APPLIED_FILE: requested vs applied) as storage-applied-<node>;
# prints --attach arguments for them.
ios_node_state() {
	local tag=$1 f nodeargs=()
	[[ -n ${IOS_STORAGE_POLICY:-} ]] && nodeargs+=(--policy="$IOS_STORAGE_POLICY")
	[[ -n ${IOS_STORAGE_STATE_DIR:-} ]] && nodeargs+=(--state-dir="$IOS_STORAGE_STATE_DIR")
	# shellcheck disable=SC2016
	ios_on_storage bash -c 'edir=$1 tag=$2 node=$3; shift 3
		"$node" status --json "$@" >"$edir/storage-$tag-$SLURMD_NODENAME.json.tmp" &&
			mv -f "$edir/storage-$tag-$SLURMD_NODENAME.json.tmp" "$edir/storage-$tag-$SLURMD_NODENAME.json" || exit 1
		if [[ $tag == before && -r ${IOSTRATA_APPLIED_FILE:-} ]]; then
			cp "$IOSTRATA_APPLIED_FILE" "$edir/storage-applied-$SLURMD_NODENAME.json"
		fi' _ "$IOS_EDIR" "$tag" "$NODE" "${nodeargs[@]}" >&2 ||
		{ ios_soft_fail "iostrata-node status --json ($tag) failed on the storage nodes"; return 1; }
	for f in "$IOS_EDIR"/storage-"$tag"-*.json; do
		[[ -e $f ]] || continue
		f=${f##*/}
		printf -- '--attach=%s=%s\n' "${f%.json}" "$IOS_EDIR/$f"
	done
	if [[ $tag == before ]]; then
		for f in "$IOS_EDIR"/storage-applied-*.json; do
			[[ -e $f ]] || continue
			f=${f##*/}
			printf -- '--attach=%s=%s\n' "${f%.json}" "$IOS_EDIR/$f"
		done
	fi
}

# ios_host_facts [STORAGE_GROUP [CLIENT_GROUP]]: every host's record
# (iostrata-facts) collected on the host itself: on each node of the
# heterogeneous job's storage component (default 1) with role storage and
# the SPANK plugin's applied file of the job, on each node of the client
# component (default 0) with role client; into
# $IOS_EDIR/host-facts-<node>.json.  Prints --host-facts arguments for
# iostrata-bench, which stores them in /hosts (the storage hosts run no
# rank in a sweep element).  Not a heterogeneous job: nothing.
ios_host_facts() {
	local sg=${1:-1} cg=${2:-0} g role f a
	[[ -n ${SLURM_HET_SIZE:-} ]] || return 0
	for g in "$sg" "$cg"; do
		role=client
		[[ $g == "$sg" ]] && role=storage
		mapfile -t a < <(ios_per_node "$g")
		# shellcheck disable=SC2016
		srun "${a[@]}" --kill-on-bad-exit=1 bash -c 'facts=$1 edir=$2 role=$3
			out=$edir/host-facts-$SLURMD_NODENAME.json
			"$facts" --role="$role" ${IOSTRATA_APPLIED_FILE:+--applied="$IOSTRATA_APPLIED_FILE"} >"$out.tmp" &&
				mv -f "$out.tmp" "$out"' _ "${FACTS:-iostrata-facts}" "$IOS_EDIR" "$role" >&2 ||
			{ ios_soft_fail "iostrata-facts failed on the $role nodes (het group $g)"; return 1; }
	done
	for f in "$IOS_EDIR"/host-facts-*.json; do
		[[ -e $f ]] && printf -- '--host-facts=%s\n' "$f"
	done
	return 0
}

# ios_state_same BEFORE AFTER: the "applied" part of two node-state files is
# identical (the configuration held for the whole run).
ios_state_same() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
a, b = (json.load(open(p)).get("applied") for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
EOF
}

# ios_check_states TAG1 TAG2: compare the per-node files of two snapshots.
ios_check_states() {
	local f g
	for f in "$IOS_EDIR"/storage-"$1"-*.json; do
		[[ -e $f ]] || continue
		g=${f/storage-$1-/storage-$2-}
		if [[ ! -e $g ]]; then
			ios_soft_fail "no '$2' state for ${f##*/}"
		elif ! ios_state_same "$f" "$g"; then
			ios_soft_fail "storage node state changed during the run: compare ${f##*/} and ${g##*/}"
		fi
	done
}

# ios_on_compute CMD...: CMD once, on a node of the compute component (het
# group IOS_COMPUTE_GROUP) in a heterogeneous job, else here.  The benchmark directory is
# on the compute nodes' filesystem, which the batch host of a heterogeneous
# job (a storage node) need not mount.
ios_on_compute() {
	if [[ -n ${SLURM_HET_SIZE:-} ]]; then
		srun --het-group="${IOS_COMPUTE_GROUP:-0}" --nodes=1 --ntasks=1 --overcommit "$@"
	else
		"$@"
	fi
}

# ios_own_dirs DIR...: ios_dir_check on the compute side (the benchmark
# directories live in shared scratch, which the batch host of a
# heterogeneous job need not mount); fails the element naming the
# directory and what is wrong.
ios_own_dirs() {
	local why
	why=$(ios_on_compute /bin/bash -c "$(declare -f ios_dir_check)"'
ios_dir_check "$@"' ios_own_dirs "$@" 2>&1) || ios_fail "benchmark directory: ${why:-cannot create or check $*}"
}

ios_make_wdir() {
	ios_own_dirs "$IOS_WDIR"
}

ios_remove_wdir() {
	ios_on_compute rm -rf "$IOS_WDIR" || ios_warn "remove $IOS_WDIR failed"
}

# ios_timing_write: the element's wall-clock seconds (ios_init to exit) and
# the seconds its benchmark runs measured (the timed windows: phases x
# repetitions x runtime of each run that ended), "total_s measured_s" in
# $IOS_EDIR/timing; iostrata-campaign status sums them into the campaign's
# efficiency.
ios_timing_write() {
	[[ -n ${IOS_EDIR_OK:-} && -n ${IOS_T0:-} ]] || return 0
	awk -v t0="$IOS_T0" -v t1="$(date +%s.%N)" -v m="${IOS_MEASURED_S:-0}" \
		'BEGIN { printf "%.3f %.3f\n", t1 - t0, m }' | ios_put "$IOS_EDIR/timing" 2>/dev/null || true
}

# ios_timed_s ARGS...: the seconds the timed windows of an iostrata-bench
# run with ARGS take (phases x --reps x --runtime, the tool's defaults 7 and
# 150 s; 0 with --once, which has no planned window).
ios_timed_s() {
	local a rw=write reps=7 rt=150
	for a; do
		case $a in
		--rw=*) rw=${a#--rw=} ;;
		--reps=*) reps=${a#--reps=} ;;
		--runtime=*) rt=${a#--runtime=} ;;
		--once) rt=0 ;;
		esac
	done
	awk -v n="$(tr -cd , <<<"$rw" | wc -c)" -v reps="$reps" -v rt="$rt" 'BEGIN {
		m = 1; v = rt
		if (rt ~ /ms$/) { m = 0.001; sub(/ms$/, "", v) }
		else if (rt ~ /s$/) sub(/s$/, "", v)
		else if (rt ~ /m$/) { m = 60; sub(/m$/, "", v) }
		else if (rt ~ /h$/) { m = 3600; sub(/h$/, "", v) }
		printf "%.3f\n", (n + 1) * reps * v * m }'
}

# ios_dataset_key ARGS...: what names the dataset of an iostrata-bench run
# with ARGS: file size, block size and file layout (the tool's defaults
# 16G, 8M, per-rank); its seed is the campaign's, its pool the factor's
# directory.  The tool's mark (user.iostrata.dataset) is the real check.
ios_dataset_key() {
	local a bs=8M size=16G lay=per-rank
	for a; do
		case $a in
		--bs=*) bs=${a#--bs=} ;;
		--size=*) size=${a#--size=} ;;
		--file-layout=*) lay=${a#--file-layout=} ;;
		esac
	done
	printf 'size%s-bs%s-%s\n' "$size" "$bs" "$lay"
}

# ios_dataset_dir ARGS...: with [workload] reuse_dataset = 1 in a campaign,
# set IOS_DATASET_DIR (the directory the run's files live in, shared by the
# campaign's elements: DIR/iostrata-datasets/CAMPAIGN/KEY with DIR the
# factor's directory or [workload] dir) and IOS_DATASET_ARGS, record it in
# the campaign's datasets.tsv (iostrata-campaign clean removes what it
# lists) and take its lock: the first element to get it lays the dataset
# out while later ones wait; once a run over it ended well
# (ios_dataset_unlock marks it ready), later elements reuse it without the
# lock (the tool refuses a file whose mark differs).  Without reuse: the
# element's own directory.
ios_dataset_dir() {
	IOS_DATASET_DIR=$IOS_WDIR IOS_DATASET_ARGS=() IOS_DATASET_READY=
	[[ ${IOS_WORKLOAD_REUSE_DATASET:-0} == 1 ]] || return 0
	local camp=${IOS_CAMP:-} key name seed lk
	[[ -n $camp ]] || { ios_warn "[workload] reuse_dataset = 1 needs a campaign (IOSTRATA_CAMPAIGN_DIR): laid out in the element's own directory"; return 0; }
	name=$(basename "$camp")
	key=${IOSTRATA_REPLICATION:+r$IOSTRATA_REPLICATION-}$(ios_dataset_key "$@")
	IOS_DATASET_DIR=${IOSTRATA_REPLICATION_DIR:-$IOS_WORKLOAD_DIR}/iostrata-datasets/$name/$key
	seed=$(cksum <<<"$name" | cut -d' ' -f1)
	IOS_DATASET_ARGS=(--reuse-dataset --seed="$seed")
	ios_lock_open IOS_DATASET_FD "$camp/dataset.$key.lock" || ios_fail "[workload] reuse_dataset: $IOS_WHY"
	flock "$IOS_DATASET_FD"
	# datasets.tsv, rewritten through a new name under a lock on the
	# campaign directory itself (the elements of other keys add to it too)
	ios_plain "$camp/datasets.tsv" ||
		ios_fail "[workload] reuse_dataset: $camp/datasets.tsv is not a regular file (a symlink?): refused (remove it)"
	exec {lk}<"$camp" || ios_fail "[workload] reuse_dataset: cannot open $camp"
	flock "$lk"
	if ! grep -qxF "$key	$IOS_DATASET_DIR" "$camp/datasets.tsv" 2>/dev/null; then
		{
			cat "$camp/datasets.tsv" 2>/dev/null
			printf '%s\t%s\n' "$key" "$IOS_DATASET_DIR"
		} | ios_put "$camp/datasets.tsv" || ios_fail "[workload] reuse_dataset: cannot write $camp/datasets.tsv"
	fi
	exec {lk}<&-
	# iostrata-datasets is shared by the users of DIR (sticky, as /tmp);
	# a campaign's directory in it and the dataset's are this user's alone
	ios_on_compute /bin/bash -c 'mkdir -p -- "$(dirname -- "$1")"; mkdir -m 1777 -- "$1" 2>/dev/null && chmod 1777 -- "$1"; [[ -d $1 ]]' \
		_ "${IOS_DATASET_DIR%/*/*}" || ios_fail "create ${IOS_DATASET_DIR%/*/*}: cannot create the datasets directory"
	ios_own_dirs "${IOS_DATASET_DIR%/*}" "$IOS_DATASET_DIR"
	IOS_DATASET_READY=$camp/dataset.$key.ready
	if [[ -e $IOS_DATASET_READY ]]; then
		ios_msg "dataset $IOS_DATASET_DIR: laid out by an earlier element: reused"
		ios_dataset_unlock
	else
		ios_msg "dataset $IOS_DATASET_DIR: this element lays it out (the others wait)"
	fi
}

# ios_dataset_unlock [RC]: release the dataset lock ios_dataset_dir took;
# with RC 0 the dataset is ready for the elements after this one.
ios_dataset_unlock() {
	[[ -n ${IOS_DATASET_FD:-} ]] || return 0
	[[ ${1:-1} == 0 && -n ${IOS_DATASET_READY:-} ]] && ios_put "$IOS_DATASET_READY" </dev/null
	flock -u "$IOS_DATASET_FD"
	exec {IOS_DATASET_FD}>&-
	IOS_DATASET_FD=
}

# ios_bench OUTPUT ARGS...: iostrata-bench on the compute component (het
# group IOS_COMPUTE_GROUP, or the whole allocation for single-component
# jobs); with IOS_BENCH_NODE=NODE on that one node alone (its ranks per node),
# with IOS_BENCH_NODE=N1,N2,... on those nodes (the same ranks per node); the
# scrub record attached when ios_noscrub_hold switched scrubbing off.
ios_bench() {
	local out=$1 group=() where=()
	shift
	[[ -n ${SLURM_HET_SIZE:-} ]] && group=(--het-group="${IOS_COMPUTE_GROUP:-0}")
	if [[ -n ${IOS_BENCH_NODE:-} ]]; then
		# one node, or a comma list of nodes (the NERSC profile's levels)
		local rpn=${SLURM_NTASKS_PER_NODE:-${IOS_COMPUTE_RANKS_PER_NODE:-1}} nn
		rpn=${rpn%%(*}
		nn=$(($(tr -cd , <<<"$IOS_BENCH_NODE" | wc -c) + 1))
		where=(--nodelist="$IOS_BENCH_NODE" --nodes="$nn" --ntasks="$((nn * rpn))" --ntasks-per-node="$rpn")
	fi
	ios_make_wdir
	ios_dataset_dir "$@"
	ios_msg "bench${IOS_BENCH_NODE:+ on $IOS_BENCH_NODE alone}: $*"
	srun "${group[@]}" "${where[@]}" --mpi="$IOS_MPI" --kill-on-bad-exit=1 "$BENCH" --dir="$IOS_DATASET_DIR" \
		--output="$out" --quiet "$@" "${IOS_DATASET_ARGS[@]}" "${IOS_NOSCRUB_ATTACH[@]}"
	local rc=$?
	ios_dataset_unlock "$rc"
	[[ $rc -ne 0 ]] || IOS_MEASURED_S=$(awk -v a="$IOS_MEASURED_S" -v b="$(ios_timed_s "$@")" 'BEGIN { printf "%.3f", a + b }')
	return "$rc"
}

# The workload options every bench run shares.
ios_workload_args() {
	local a=()
	[[ -n ${IOS_WORKLOAD_FILE_SIZE:-} ]] && a+=(--size="$IOS_WORKLOAD_FILE_SIZE")
	[[ -n ${IOS_WORKLOAD_RUNTIME:-} ]] && a+=(--runtime="$IOS_WORKLOAD_RUNTIME")
	[[ -n ${IOS_WORKLOAD_REPS:-} ]] && a+=(--reps="$IOS_WORKLOAD_REPS")
	[[ -n ${IOS_WORKLOAD_IODEPTH:-} ]] && a+=(--iodepth="$IOS_WORKLOAD_IODEPTH")
	[[ -n ${IOS_WORKLOAD_IOENGINE:-} ]] && a+=(--ioengine="$IOS_WORKLOAD_IOENGINE")
	[[ -n ${IOS_WORKLOAD_INTERVAL:-} ]] && a+=(--interval="$IOS_WORKLOAD_INTERVAL")
	printf '%s\n' "${a[@]}"
}

# ios_sweep_element: the body of both sweeps.  Storage state before, the
# sequential (seq_bs) and random (rand_bs) write+read runs on the compute
# nodes, storage state after; both results files carry the "before" states.
ios_sweep_element() {
	local attach=() work=() hostf=() repl=() rc=0
	[[ -n ${SLURM_HET_SIZE:-} ]] ||
		ios_fail "not a heterogeneous job: submit with iostrata-campaign (compute component : storage component)"
	mapfile -t work < <(ios_workload_args)
	ios_noscrub_hold
	mapfile -t repl < <(ios_replication_record)
	[[ -z ${IOSTRATA_REPLICATION:-} || ${#repl[@]} -gt 0 ]] || ios_fail "replication ${IOSTRATA_REPLICATION:-}: not recorded (see above)"
	mapfile -t attach < <(ios_node_state before)
	[[ ${#attach[@]} -gt 0 ]] || ios_warn "no storage-node state recorded (iostrata-node missing?)"
	mapfile -t hostf < <(ios_host_facts "$IOS_STORAGE_GROUP" "$IOS_COMPUTE_GROUP")
	hostf+=("${repl[@]}")
	# the campaign's record of this element (iostrata-campaign submit):
	# its index and whether it is the unconstrained baseline, which the
	# report normalises every figure to
	[[ -f $IOS_EDIR/element.json && ! -L $IOS_EDIR/element.json ]] &&
		hostf+=("--attach=element=$IOS_EDIR/element.json")
	attach+=("${hostf[@]}")
	ios_bench "$IOS_EDIR/seq.h5" --rw=write,read --bs="${IOS_WORKLOAD_SEQ_BS:-8M}" \
		--reorder "${work[@]}" "${attach[@]}" || { rc=$?; ios_soft_fail "sequential run failed (exit $rc)"; }
	mapfile -t attach < <(ios_node_state mid)
	attach+=("${hostf[@]}")
	ios_bench "$IOS_EDIR/rand.h5" --rw=randwrite,randread --bs="${IOS_WORKLOAD_RAND_BS:-4K}" \
		--reorder "${work[@]}" "${attach[@]}" || { rc=$?; ios_soft_fail "random run failed (exit $rc)"; }
	ios_node_state after >/dev/null
	ios_check_states before after
	ios_remove_wdir
	ios_msg "element done"
}

# ios_het_srun SRUN-ARGS... -- PROGRAM [ARGS...]: `srun SRUN-ARGS PROGRAM
# ARGS` for a step across the components of a heterogeneous job
# (--het-group=0,1), returning when its tasks have ended, with srun's
# status (the largest task status, 128+N for signal N).
#
# srun before Slurm 24.05.4 (SchedMD ticket 16817, "mpi/pmix - avoid races
# for abort EIO threads") can hang for good after every task of such a
# step has exited: each component's launch thread starts and stops one
# mpi/pmix abort agent in the same static variables.  On the local site
# (22.05.8) 11 of 84 steps of smoke_mpi hung so; iostrata's own MPI
# programs end their components a second apart (lyr_het_exit_wait), which
# closes one of the two races, not the other (1 of 24 still hung).  So
# each task runs PROGRAM under a bash that leaves its exit status in a
# fresh directory under $IOS_HET_STATE_DIR (default $SLURM_SUBMIT_DIR,
# the directory the tasks start in; the batch host and the nodes of every
# component, storage hosts too, must see it: a shared filesystem); once every task's status is there and srun is still
# running $IOS_HET_GRACE seconds later (default 20), srun is sent TERM,
# then KILL 10 s on, a warning says so, and the tasks' statuses make the
# exit status.  A task that died without leaving its status (SIGKILL, a
# node lost) leaves srun alone.  TERM or INT to the caller goes on to srun.
ios_het_srun() {
	local args=() a base dir pid rc hung='' since='' n want f st max=0 i traps
	while (($#)); do
		a=$1
		shift
		[[ $a == -- ]] && break
		args+=("$a")
	done
	if (($# == 0)); then
		ios_warn "ios_het_srun: no program after \"--\" (usage: ios_het_srun SRUN-ARGS... -- PROGRAM [ARGS...])"
		return 2
	fi
	local grace=${IOS_HET_GRACE:-20}
	if ! [[ $grace =~ ^[0-9]+$ ]] || ((grace < 1 || grace > 3600)); then
		ios_warn "ios_het_srun: IOS_HET_GRACE=\"$grace\": want whole seconds, 1 to 3600"
		return 2
	fi
	base=${IOS_HET_STATE_DIR:-${SLURM_SUBMIT_DIR:-$PWD}}
	if ! dir=$(mktemp -d "$base/.iostrata-het.XXXXXX" 2>/dev/null); then
		ios_warn "ios_het_srun: cannot make a state directory in \"$base\" (IOS_HET_STATE_DIR or the submit directory: a directory every node sees, writable); running srun unguarded"
		srun "${args[@]}" "$@"
		return
	fi
	chmod 755 "$dir"
	# the task: PROGRAM, then "STATUS NTASKS" in DIR/PROCID (renamed in)
	# shellcheck disable=SC2016 # expanded by the task's bash
	srun "${args[@]}" bash -c '
		d=$1
		shift
		"$@"
		rc=$?
		set -C # a fresh name in the fresh directory: never through a link
		printf "%s %s\n" "$rc" "${SLURM_STEP_NUM_TASKS:-0}" >"$d/.$SLURM_PROCID" &&
			mv -f "$d/.$SLURM_PROCID" "$d/$SLURM_PROCID"
		exit "$rc"' iostrata-het-task "$dir" "$@" &
	pid=$!
	traps=$(trap -p TERM INT)
	trap 'kill -TERM "$pid" 2>/dev/null' TERM INT
	while kill -0 "$pid" 2>/dev/null; do
		n=0 want=
		for f in "$dir"/[0-9]*; do
			[[ -f $f ]] || continue
			n=$((n + 1))
			[[ -n $want ]] || read -r _ want <"$f"
		done
		if [[ -n $want && $want -gt 0 && $n -ge $want ]]; then
			since=${since:-$SECONDS}
			if ((SECONDS - since >= grace)); then
				hung=1
				break
			fi
		fi
		sleep 1
	done
	if [[ -n $hung ]]; then
		kill -TERM "$pid" 2>/dev/null
		for ((i = 0; i < 10; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 1
		done
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid"
	rc=$?
	# a TERM or INT trapped above ends that wait early: wait for srun itself
	while kill -0 "$pid" 2>/dev/null; do
		wait "$pid"
		rc=$?
	done
	trap - TERM INT
	eval "$traps"
	if [[ -n $hung ]]; then
		for f in "$dir"/[0-9]*; do
			read -r st _ <"$f"
			[[ $st =~ ^[0-9]+$ ]] && ((st > max)) && max=$st
		done
		ios_warn "srun did not end ${grace} s after all $want tasks of its step had ended (Slurm before 24.05.4, SchedMD ticket 16817): stopped it; the tasks' status is $max"
		rc=$max
	fi
	rm -rf -- "$dir"
	return "$rc"
}
