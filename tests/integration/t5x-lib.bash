# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# t5x-lib.bash: helpers shared by the jobs integration tests (t5x-*.sh);
# sourced, not run (the runner only runs t[0-9]*.sh).  Expects the site env
# (tests/integration/run sources it) and IOSTRATA_BUILD_DIR.

t5x_log() { printf '%s: %s\n' "$T" "$*"; }
t5x_fail() {
	printf '%s: FAIL: %s\n' "$T" "$*" >&2
	exit 1
}
t5x_skip() {
	printf '%s: SKIP: %s\n' "$T" "$*"
	exit 77
}

t5x_init() {
	local v
	for v in SLURM_CONF IOSTRATA_BENCH_DIR IOSTRATA_LOCAL_DIR IOSTRATA_SLURM_PARTITION; do
		[[ -n ${!v:-} ]] || t5x_skip "$v is not set: run me through tests/integration/run (or source a site env)"
	done
	TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	BUILD=${IOSTRATA_BUILD_DIR:-$TOP/build}
	export IOSTRATA_BUILD_DIR=$BUILD
	export IOSTRATA_JOBSCRIPTS=$TOP/jobscripts
	CAMPAIGN=$BUILD/jobscripts/iostrata-campaign
	BENCH=$BUILD/mpibench/iostrata-bench
	REPORT=$BUILD/report/iostrata-report
	NODE=$BUILD/spank/iostrata-node
	[[ -x $CAMPAIGN ]] || t5x_skip "$CAMPAIGN not built (needs libslurm and inih)"
	WORK=$(mktemp -d "$IOSTRATA_LOCAL_DIR/$T.XXXXXX")
	chmod 755 "$WORK"
	export IOSTRATA_CAMPAIGNS=$WORK/campaigns
	trap t5x_cleanup EXIT
}

# The real pieces a sweep needs: the benchmark, the report, the admin tool,
# and the SPANK plugin loaded (sbatch knows --iostrata-cpus).
t5x_need_real() {
	[[ -x $BENCH ]] || t5x_skip "$BENCH not built yet"
	[[ -x $REPORT ]] || t5x_skip "$REPORT not built yet"
	[[ -x $NODE ]] || t5x_skip "$NODE not built yet"
	# (not `sbatch --help | grep -q`: with pipefail, SIGPIPE reads as failure)
	[[ $(sbatch --help 2>&1) == *--iostrata-cpus* ]] ||
		t5x_skip "the SPANK plugin is not loaded in this site (IOSTRATA_PLUGSTACK)"
	# a benchmark built without the results writer cannot feed a campaign
	if ! "$BENCH" --backend=null --rw=write --bs=4K --size=64K --runtime=0.2 --interval=0.1 \
		--reps=1 --quiet --dir="$WORK" --output="$WORK/probe.h5" >"$WORK/probe.txt" 2>&1 ||
		[[ ! -s $WORK/probe.h5 ]]; then
		grep -q "no results writer" "$WORK/probe.txt" &&
			t5x_skip "iostrata-bench is built without the results writer (h5schema not linked yet)"
		t5x_fail "iostrata-bench cannot run a null-backend probe: $(head -c 500 "$WORK/probe.txt")"
	fi
	rm -f "$WORK/probe.h5"
}

# Cancel every job a campaign of ours submitted (by id), remove our files,
# then check the machine: node whole, nothing drained.
t5x_cleanup() {
	local rc=$? f ids
	for f in "$WORK"/campaigns/*/elements.tsv "$WORK"/*/elements.tsv; do
		[[ -e $f ]] || continue
		ids=$(awk -F'\t' '!/^#/ && $3 > 0 { print $3 }' "$f")
		[[ -n $ids ]] && scancel $ids 2>/dev/null
	done
	for f in "$WORK"/campaigns/*/elements.tsv "$WORK"/*/elements.tsv; do
		[[ -e $f ]] || continue
		ids=$(awk -F'\t' '!/^#/ && $3 > 0 { print $3 }' "$f")
		for id in $ids; do
			for _ in $(seq 1 30); do
				[[ -n $(squeue -h -j "$id" 2>/dev/null) ]] || break
				sleep 1
			done
		done
	done
	if [[ -x $NODE ]]; then
		# every storage host's policy and state dir (the site gives each
		# its own below IOSTRATA_HOSTS_DIR)
		local base=${IOSTRATA_SITE_BASE:-} ok= h hdir bad
		# The kernel is shared with anything else on the machine that
		# hotplugs (other sites' tests): allow a few seconds for a
		# transient outside change before calling the node not whole.
		for _ in 1 2 3 4 5; do
			bad=
			: >"$WORK/node-check.txt"
			for h in ${IOSTRATA_STORAGE_NODES//,/ }; do
				hdir=${IOSTRATA_HOSTS_DIR:-$base/hosts}/$h/iostrata
				"$NODE" check --node="$h" --policy="$hdir/policy.conf" --state-dir="$hdir/state" \
					>>"$WORK/node-check.txt" 2>&1 || bad=1
			done
			if [[ -z $bad ]]; then
				ok=1
				break
			fi
			sleep 2
		done
		# Shaped by another site on this kernel (spank's host registry
		# names the shaping site's state dir and job): not ours to judge.
		local active=
		[[ -r /run/iostrata-host/active ]] && active=$(cat /run/iostrata-host/active)
		if [[ -z $ok && -n $active && $active != "$base/"* ]]; then
			t5x_log "node not whole, but shaped by another site ($active): not checked"
			ok=1
		fi
		if [[ -z $ok ]]; then
			printf '%s: FAIL: node not whole after the test: %s\n' "$T" "$(tr '\n' ' ' <"$WORK/node-check.txt")" >&2
			rc=1
		fi
	fi
	local drained
	drained=$(sinfo -h -t drain,drng,down -o %N 2>&1)
	if [[ -n $drained ]]; then
		printf '%s: FAIL: nodes drained/down after the test: %s\n' "$T" "$drained" >&2
		rc=1
	fi
	[[ -n ${KEEP_WORK:-} ]] || rm -rf -- "$WORK"
	exit "$rc"
}

# t5x_site OUT KEY=VALUE...: the local site description with some values
# replaced (section.key=value), for a scaled-down test.
t5x_site() {
	local out=$1 kv sec key val
	shift
	mkdir -p "$(dirname "$out")"
	cp "$TOP/site/local/site.conf" "$out"
	for kv in "$@"; do
		sec=${kv%%.*}
		key=${kv#*.}
		key=${key%%=*}
		val=${kv#*=}
		awk -v s="[$sec]" -v k="$key" -v v="$val" '
			/^\[/ { insec = ($0 == s) }
			insec && $1 == k && $2 == "=" { print k " = " v; done = 1; next }
			{ print }
			END { if (!done) exit 3 }' "$out" >"$out.new" ||
			t5x_fail "t5x_site: no $sec.$key in site/local/site.conf"
		mv "$out.new" "$out"
	done
	# the tier table path is relative to site/local
	sed -i "s|^tiers = ../example/tiers.conf|tiers = $TOP/site/example/tiers.conf|" "$out"
}

# t5x_wait SITE JOB [SECONDS]: wait until every element ended.
t5x_wait() {
	local rc
	"$CAMPAIGN" status "$1" "$2" --wait="${3:-300}" >"$WORK/status-$2.txt"
	rc=$?
	cat "$WORK/status-$2.txt"
	[[ $rc -ne 3 ]] || t5x_fail "campaign $2 still has pending or running elements after ${3:-300} s"
	return "$rc"
}
