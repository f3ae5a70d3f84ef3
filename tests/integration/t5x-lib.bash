# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# t5x-lib.bash: helpers shared by the jobs integration tests (t5x-*.sh);
# sourced, not run (the runner only runs t[0-9]*.sh); on top of lib.bash.
# Expects the site env (tests/integration/run sources it) and
# IOSTRATA_BUILD_DIR.

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

t5x_init() {
	require_env SLURM_CONF IOSTRATA_BENCH_DIR IOSTRATA_LOCAL_DIR IOSTRATA_SLURM_PARTITION
	export IOSTRATA_BUILD_DIR=$build
	export IOSTRATA_JOBSCRIPTS=$top/jobscripts
	CAMPAIGN=$build/jobscripts/iostrata-campaign
	BENCH=$build/mpibench/iostrata-bench
	REPORT=$build/report/iostrata-report
	NODE=$build/spank/iostrata-node
	[[ -x $CAMPAIGN ]] || skip "$CAMPAIGN not built (needs libslurm and inih)"
	make_work
	export IOSTRATA_CAMPAIGNS=$work/campaigns
	at_exit t5x_exit
}

# The real pieces a sweep needs: the benchmark, the report, the admin tool,
# and the SPANK plugin loaded (sbatch knows --iostrata-cpus).
t5x_need_real() {
	[[ -x $BENCH ]] || skip "$BENCH not built yet"
	[[ -x $REPORT ]] || skip "$REPORT not built yet"
	[[ -x $NODE ]] || skip "$NODE not built yet"
	# (not `sbatch --help | grep -q`: with pipefail, SIGPIPE reads as failure)
	[[ $(sbatch --help 2>&1) == *--iostrata-cpus* ]] ||
		skip "the SPANK plugin is not loaded in this site (IOSTRATA_PLUGSTACK)"
	# a benchmark built without the results writer cannot feed a campaign
	if ! "$BENCH" --backend=null --rw=write --bs=4K --size=64K --runtime=0.2 --interval=0.1 \
		--reps=1 --quiet --dir="$work" --output="$work/probe.h5" >"$work/probe.txt" 2>&1 ||
		[[ ! -s $work/probe.h5 ]]; then
		grep -q "no results writer" "$work/probe.txt" &&
			skip "iostrata-bench is built without the results writer (h5schema not linked yet)"
		fail "iostrata-bench cannot run a null-backend probe: $(head -c 500 "$work/probe.txt")"
	fi
	rm -f "$work/probe.h5"
}

# Cancel every job a campaign of ours submitted (by id), then check the
# machine: node whole, nothing drained (lib.bash removes our files).
t5x_exit() {
	local f ids
	for f in "$work"/campaigns/*/elements.tsv "$work"/*/elements.tsv; do
		[[ -e $f ]] || continue
		ids=$(awk -F'\t' '!/^#/ && $3 > 0 { print $3 }' "$f")
		[[ -n $ids ]] && scancel $ids 2>/dev/null
	done
	for f in "$work"/campaigns/*/elements.tsv "$work"/*/elements.tsv; do
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
		# its own below IOSTRATA_HOSTS_DIR), checked by the host's name
		local base=${IOSTRATA_SITE_BASE:-} ok= h hdir bad
		# The kernel is shared with anything else on the machine that
		# hotplugs (other sites' tests): allow a few seconds for a
		# transient outside change before calling the node not whole.
		for _ in 1 2 3 4 5; do
			bad=
			: >"$work/node-check.txt"
			for h in ${IOSTRATA_STORAGE_NODES//,/ }; do
				hdir=${IOSTRATA_HOSTS_DIR:-$base/hosts}/$h/iostrata
				"$NODE" check --node="$h" --policy="$hdir/policy.conf" --state-dir="$hdir/state" \
					>>"$work/node-check.txt" 2>&1 || bad=1
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
			log "node not whole, but shaped by another site ($active): not checked"
			ok=1
		fi
		[[ -n $ok ]] || late_fail "node not whole after the test: $(tr '\n' ' ' <"$work/node-check.txt")"
	fi
	local n
	n=$(drained 2>&1) || n="sinfo failed: $n"
	[[ -z $n ]] || late_fail "nodes drained/down after the test: $n"
}

# t5x_site OUT KEY=VALUE...: the local site description with some values
# replaced (section.key=value), for a scaled-down test.
t5x_site() {
	local out=$1 kv sec key val
	shift
	mkdir -p "$(dirname "$out")"
	cp "$top/site/local/site.conf" "$out"
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
			fail "t5x_site: no $sec.$key in site/local/site.conf"
		mv "$out.new" "$out"
	done
	# the tier table path is relative to site/local
	sed -i "s|^tiers = ../example/tiers.conf|tiers = $top/site/example/tiers.conf|" "$out"
}

# t5x_wait SITE JOB [SECONDS]: wait until every element ended.
t5x_wait() {
	local rc
	"$CAMPAIGN" status "$1" "$2" --wait="${3:-300}" >"$work/status-$2.txt"
	rc=$?
	cat "$work/status-$2.txt"
	if [[ $rc -ne 0 ]]; then
		# what a failed element printed (the work directory goes at exit)
		local f
		while IFS= read -r f; do
			grep -Eq 'FAILED|failed|error' "$f" || continue
			echo "---- $f (last 25 lines)"
			tail -n 25 "$f"
		done < <(find "$work/campaigns" -maxdepth 4 -name 'slurm-*.out' 2>/dev/null | sort)
	fi
	[[ $rc -ne 3 ]] || fail "campaign $2 still has pending or running elements after ${3:-300} s"
	return "$rc"
}

# t5x_tiers OUT FLOOR_BW: a tier table with the tier "Floor" (FLOOR_BW,
# 1 IOPS: a floor every site meets) and the tier "Impossible" (nobody
# meets it).
t5x_tiers() {
	cat >"$1" <<TIERS
[tier "Floor"]
seq_read_bw = $2
seq_write_bw = $2
rand_read_iops = 1
rand_write_iops = 1
[tier "Impossible"]
seq_read_bw = 1000GB
seq_write_bw = 1000GB
rand_read_iops = 1000000000
rand_write_iops = 1000000000
TIERS
}
