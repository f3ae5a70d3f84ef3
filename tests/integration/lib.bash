# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# tests/integration/lib.bash: what every integration test shares, sourced
# first (directly, or through its group's t1x/t2x/t4x/t5x-lib.bash), not
# run: messages and exit codes (0 pass, 1 fail, 77 skip: what
# tests/integration/run counts), one EXIT trap that runs the cleanups in
# the reverse order of their registration, work directories, Slurm jobs
# (submit, wait, cancelled at exit), drained nodes, a tree's checksums and
# running a command as another user.  Sets T (the test's name, from $0
# unless set before), top (the source tree) and build (the built tree).
# Sets no shell options: tests run with and without `set -e`.

T=${T:-$(basename "$0" .sh)}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${IOSTRATA_BUILD_DIR:-$top/build}

# log MSG: a line of the test's log, with the seconds since the test
# started (where the time of a slow test goes: tests/run's table has only
# its total)
log() { printf '%s: [%5ds] %s\n' "$T" "$SECONDS" "$*"; }
fail() {
	printf '%s: FAIL: %s\n' "$T" "$*" >&2
	exit 1
}
skip() {
	printf '%s: SKIP: %s\n' "$T" "$*"
	exit 77
}

# require_env VAR...: skip unless every VAR is set (the site env).
require_env() {
	local v
	for v; do
		[[ -n ${!v:-} ]] || skip "$v is not set: run me through tests/integration/run (or source a site env)"
	done
}

# ---------------------------------------------------------------- exit

# at_exit CMD [ARG...]: run CMD at exit, before everything registered
# earlier.  A cleanup that finds something wrong calls late_fail; IT_RC
# holds the exit code the test is leaving with (a cleanup may change it).
IT_AT_EXIT=()
IT_RC=0
at_exit() { IT_AT_EXIT+=("$(printf '%q ' "$@")"); }
late_fail() {
	printf '%s: FAIL: %s\n' "$T" "$*" >&2
	IT_RC=1
}
it_exit() {
	IT_RC=$?
	local i
	trap - EXIT
	set +e
	for ((i = ${#IT_AT_EXIT[@]} - 1; i >= 0; i--)); do
		eval "${IT_AT_EXIT[i]}"
	done
	exit "$IT_RC"
}
trap it_exit EXIT

# site_leftovers BASE PREFIX SUBNET FSID NETNS-INODE...: what a second site
# (one a test brought up in BASE, its interfaces named PREFIX-*) left
# behind after its `down`: its base, mounts below it, interfaces of its
# prefix (bridge, veths, guests' taps), addresses and routes of its
# subnet, its Ceph slice, processes in its hosts' namespaces or holding
# its base in their command line or environment; one line each (empty:
# nothing).  SUBNET and FSID may be empty (not known).
site_leftovers() {
	local base=$1 prefix=$2 subnet=$3 fsid=$4 f pid inode esc='\x2d' r
	shift 4
	[[ -e $base ]] && echo "base $base"
	awk -v b="$base" '$2 == b || index($2, b "/") == 1 { print "mount " $2 }' /proc/mounts
	ip -o link show 2>/dev/null | awk -F': ' -v p="$prefix-" '{ sub(/@.*/, "", $2) } index($2, p) == 1 { print "interface " $2 }'
	[[ -n $subnet ]] && ip -4 -o addr show | awk -v s="${subnet%.0/24}." 'index($4, s) == 1 { print "address " $4 " on " $2 }'
	[[ -n $subnet ]] && ip -4 route show table all | grep -F "${subnet%.0/24}." | sed 's/^/route /'
	for r in $(awk '($3 == "cgroup" && $4 ~ /(^|,)(blkio|cpu|memory)(,|$)/) || $3 == "cgroup2" { print $2 }' /proc/mounts); do
		[[ -n $fsid && -e "$r/system.slice/system-ceph$esc${fsid//-/$esc}.slice" ]] &&
			echo "cgroup $r/system.slice/system-ceph$esc${fsid//-/$esc}.slice"
	done
	for f in /proc/[0-9]*; do
		pid=${f#/proc/}
		[[ $pid == "$$" || $pid == "$BASHPID" ]] && continue
		for inode in "$@"; do
			[[ $(readlink "$f/ns/net" 2>/dev/null) == "$inode" ]] && echo "process $pid in a host namespace ($inode)"
		done
		# anything holding the base in its command line or environment
		if tr '\0' '\n' <"$f/cmdline" 2>/dev/null | grep -qF "$base/"; then
			echo "process $pid: $(tr '\0' ' ' <"$f/cmdline" | head -c 200)"
		elif grep -qzF "SLURM_CONF=$base/" "$f/environ" 2>/dev/null; then
			echo "process $pid (environment): $(tr '\0' ' ' <"$f/cmdline" | head -c 200)"
		fi
	done
	return 0
}

# ---------------------------------------------------------------- files

# make_work [PARENT]: a fresh directory $work (mode 755) under PARENT
# (default $IOSTRATA_LOCAL_DIR, the site's local disk every node sees),
# removed at exit unless IOSTRATA_KEEP_WORK is set (an existing directory:
# copied into it first, since the site's disk goes with the site, so the
# figures a test drew can be looked at); the jobs submitted with submit
# are cancelled before.
make_work() {
	local parent=${1:-${IOSTRATA_LOCAL_DIR:-}}
	[[ -n $parent ]] || fail "make_work: no directory to work in (IOSTRATA_LOCAL_DIR is not set)"
	work=$(mktemp -d "$parent/$T.XXXXXX") || fail "make_work: mktemp -d in $parent failed"
	chmod 755 "$work"
	IT_JOBS=$work/.jobs
	at_exit remove_work "$work"
	at_exit cancel_jobs
}
remove_work() {
	if [[ -d ${IOSTRATA_KEEP_WORK:-} ]]; then
		cp -a -- "$1" "$IOSTRATA_KEEP_WORK"/ &&
			log "IOSTRATA_KEEP_WORK: copied $1 into $IOSTRATA_KEEP_WORK"
		rm -rf -- "$1"
	elif [[ -n ${IOSTRATA_KEEP_WORK:-} ]]; then
		log "IOSTRATA_KEEP_WORK: kept $1"
	else
		rm -rf -- "$1"
	fi
}

# make_shared DIR: create DIR sticky and world-writable (ranks and users of
# any uid write there), removed with its contents at exit.
make_shared() {
	[[ -n $1 && $1 != / ]] || fail "make_shared: bad directory \"$1\""
	mkdir -p "$1" || fail "make_shared: mkdir $1 failed"
	chmod 1777 "$1"
	at_exit rm -rf -- "$1"
}

# mount_tmpfs DIR OPTIONS: mount a tmpfs with OPTIONS (size=,mode=) on
# DIR (created), unmounted at exit (a failed umount fails the test).
# Returns mount's status.
mount_tmpfs() {
	mkdir -p "$1" && mount -t tmpfs -o "$2" tmpfs "$1" || return 1
	at_exit umount_at_exit "$1"
}
umount_at_exit() {
	if mountpoint -q "$1" 2>/dev/null; then
		umount "$1" || late_fail "umount $1 failed"
	fi
}

# tree_sums DIR: the sha256 of every file below DIR, the mode, owner,
# group and mtime of every directory, the type, mode, owner and link
# target of every other entry: equal output, untouched tree.  A file's
# link count is left out: a hard link to it from elsewhere does not
# change the tree.
tree_sums() {
	(
		cd "$1" || exit 1
		find . -type f -print0 | sort -z | xargs -0 -r sha256sum
		find . -type d -printf '%p %m %U %G %T@\n' | sort
		find . ! -type f ! -type d -printf '%p %y %m %U %l\n' | sort
	)
}

# ---------------------------------------------------------------- users

# as_user USER CMD...: run CMD as USER (name or uid) with its primary group
# and no supplementary groups, HOME=$AS_HOME (default: USER's home).
# as_argv USER sets AS_ARGV to the same command prefix, for a CMD run in
# the background whose $! must be CMD itself: "${AS_ARGV[@]}" CMD &
as_argv() {
	local uid gid home
	uid=$(id -u "$1" 2>/dev/null) && gid=$(id -g "$1" 2>/dev/null) ||
		fail "as_user: no user \"$1\""
	home=${AS_HOME:-$(getent passwd "$uid" | cut -d: -f6)}
	command -v setpriv >/dev/null || skip "setpriv missing (util-linux)"
	AS_ARGV=(setpriv --reuid="$uid" --regid="$gid" --clear-groups env HOME="${home:-/}")
}
as_user() {
	local -a AS_ARGV
	as_argv "$1"
	shift
	"${AS_ARGV[@]}" "$@"
}

# ---------------------------------------------------------------- time

# now (and msg, die, elapsed) from the site scripts' message library
# shellcheck source=site/local/lib/msg.bash
source "$top/site/local/lib/msg.bash"
# since T0 [DECIMALS]: seconds from T0 (a `now`) until now (default 1 decimal)
since() { awk -v a="$1" -v b="$(now)" -v d="${2:-1}" 'BEGIN { printf "%." d "f", b - a }'; }

# ---------------------------------------------------------------- Slurm

# submit SBATCH-ARGS...: sbatch --parsable; prints the job id and records it
# (record_job) so that the exit trap cancels the job if it still runs.
submit() {
	local id
	id=$(sbatch --parsable "$@") || return 1
	id=${id%%;*}
	record_job "$id"
	echo "$id"
}
record_job() {
	[[ -n $1 ]] || return 0
	[[ -n ${IT_JOBS:-} ]] || fail "record_job: no work directory to record job $1 in (make_work first)"
	echo "$1" >>"$IT_JOBS"
}

# cancel_jobs: scancel the recorded jobs still queued or running and wait
# up to 60 s for them to leave the queue (returns 1 if they do not).
cancel_jobs() {
	local ids
	[[ -s ${IT_JOBS:-} ]] || return 0
	ids=$(sort -u "$IT_JOBS" | paste -sd,)
	[[ -n $(squeue -h -j "$ids" 2>/dev/null) ]] || return 0
	scancel ${ids//,/ } 2>/dev/null
	for _ in $(seq 1 60); do
		[[ -z $(squeue -h -j "$ids" 2>/dev/null) ]] && return 0
		sleep 1
	done
	return 1
}

# wait_job ID [SECONDS]: until job ID has left the queue (default 120 s);
# returns 1 if it is still there then, after job_diag has said why.
wait_job() {
	local id=$1 deadline=$((SECONDS + ${2:-120}))
	while [[ -n $(squeue -h -j "$id" -o %T 2>/dev/null) ]]; do
		if ((SECONDS >= deadline)); then
			job_diag "$id" >&2
			return 1
		fi
		sleep 0.3
	done
}

# job_diag ID: what a job that does not end is doing: its record, its
# steps, its output so far, each of its processes (state, kernel wait
# channel and stack) and the cluster's health.
job_diag() {
	local id=$1 out f pid env
	echo "---- job $id did not end: scontrol show job"
	scontrol show job "$id" 2>&1 | sed 's/^/  /'
	echo "---- steps"
	squeue -h -s -j "$id" -o '%i %j %M %N' 2>&1 | sed 's/^/  /'
	# a heterogeneous job: one line per component
	out=$(job_field "$id" StdOut)
	out=${out%%$'\n'*}
	if [[ -n $out && -r $out ]]; then
		echo "---- output so far ($out)"
		tail -n 40 "$out" | sed 's/^/  /'
	fi
	echo "---- its processes"
	for f in /proc/[0-9]*/environ; do
		pid=${f#/proc/} pid=${pid%/environ}
		env=$(tr '\0' '\n' 2>/dev/null <"$f") || continue
		grep -qxE "SLURM_JOB_ID(_HET_GROUP_0)?=$id" <<<"$env" || continue
		ps -o pid=,stat=,wchan:24=,etime=,args= -p "$pid" 2>/dev/null | cut -c1-200 | sed 's/^/  /'
		sed 's/^/      /' "/proc/$pid/stack" 2>/dev/null | head -n 12
	done
	echo "---- ceph -s"
	timeout 20 ceph -s 2>&1 | sed 's/^/  /'
	echo "----"
}

# job_field ID FIELD: one field of `scontrol show job ID` (JobState,
# ExitCode, NodeList, ...); empty once slurmctld has forgotten the job.
job_field() {
	scontrol -o show job "$1" 2>/dev/null | sed -En "s/^(.* )?$2=([^ ]*).*$/\2/p"
}
job_state() { job_field "$1" JobState; }

# drained: the nodes drained, draining, down or failed, empty if none;
# non-zero (sinfo's message on stderr) when sinfo cannot tell.
drained() { sinfo -h -t drain,drng,down,fail -o %N; }

# expect_not_drained WHAT: fail unless every node is up and undrained.
expect_not_drained() {
	local n
	n=$(drained) || fail "$1: sinfo cannot list the drained nodes"
	[[ -z $n ]] || fail "$1: nodes drained or down: $n ($(sinfo -h -R -o '%n: %E' | tr '\n' ';'))"
}
