# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# site/local/lib/down.bash: `localsite down`: stop and remove everything a site
# started (idempotent).
# Sourced by site/local/localsite, not run on its own.

# ---------------------------------------------------------------- down

do_down() {
	local quiet=${1:-} t0 inst m h f
	t0=$(now)
	if [[ ! -e $BASE ]]; then
		[[ -n $quiet ]] || msg "no site at $BASE: nothing to do"
		return 0
	fi
	if [[ ! -f $STATE_FILE ]]; then
		if [[ -d $BASE && -z $(ls -A "$BASE") ]]; then
			rmdir "$BASE"
			return 0
		fi
		die "$BASE is not an iostrata site (no $MARKER): not touching it"
	fi
	need_root down
	inst=$(state_get instance)
	# shellcheck disable=SC2034 # read by the parts that name its daemons
	INSTANCE=$inst
	local starter
	starter=$(state_get starter || true)
	if [[ $(state_get state) == starting && -n $starter && ${starter%% *} != "$$" ]] &&
		pid_alive ${starter}; then
		die "\`$PROG up\` (pid ${starter%% *}) is still starting the site in $BASE: interrupt it (it then undoes what it started) or wait, then run down"
	fi
	state_set state stopping
	if rec_alive slurmctld; then
		# Cancel jobs so their steps end while slurmd can still clean up.
		local jobs
		jobs=$(SLURM_CONF=$SLURM_CONF_FILE timeout 5 squeue -h -o %i 2>/dev/null || true)
		if [[ -n $jobs ]]; then
			# shellcheck disable=SC2086 # job ids
			SLURM_CONF=$SLURM_CONF_FILE timeout 5 scancel $jobs 2>/dev/null || true
			for _ in $(seq 50); do
				[[ -z $(SLURM_CONF=$SLURM_CONF_FILE timeout 5 squeue -h -o %i 2>/dev/null) ]] && break
				sleep 0.1
			done
		fi
	fi
	dbg "down: jobs cancelled ($(elapsed "$t0") s)"
	# The compute hosts' mounts, then the head's.
	for h in "${COMPUTE_NODES[@]}"; do
		if rec_alive "host-$h"; then
			on_host "$h" umount "$MNT" 2>/dev/null || on_host "$h" umount -l "$MNT" 2>/dev/null || true
		fi
	done
	for m in $(mounts_under "$BASE" | sort -r); do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null ||
			warn "cannot unmount $m"
	done
	local names=() hosts=()
	if [[ -d $PIDS ]]; then
		for f in "$PIDS"/*; do
			[[ -f $f ]] || continue
			case ${f##*/} in
			host-*) hosts+=("${f##*/}") ;;
			*) names+=("${f##*/}") ;;
			esac
		done
	fi
	dbg "down: unmounted ($(elapsed "$t0") s)"
	stop_guests
	dbg "down: guests stopped ($(elapsed "$t0") s)"
	((${#names[@]} == 0)) || KILL_CEPH=1 stop_recorded "${names[@]}"
	dbg "down: daemons stopped ($(elapsed "$t0") s)"
	[[ -n $inst ]] && kill_marked "$inst"
	dbg "down: leftovers checked ($(elapsed "$t0") s)"
	# The hosts last: their namespaces (and mounts, links, qdiscs) go
	# with the last process in them.
	((${#hosts[@]} == 0)) || KILL_CEPH=1 stop_recorded "${hosts[@]}"
	remove_guest_taps
	remove_network
	dbg "down: hosts and network removed ($(elapsed "$t0") s)"
	remove_cgroups
	if [[ -n $(mounts_under "$BASE") ]]; then
		die "still mounted below $BASE: $(mounts_under "$BASE" | tr '\n' ' '); not removing it"
	fi
	dbg "down: cgroups removed ($(elapsed "$t0") s)"
	# The OSDs' block files first, in parallel: each unlink waits for an
	# ext4 journal commit (~0.5 s on a busy disk).
	local -a rmp=()
	for f in "$CEPH_DIR"/osd.*/block; do
		[[ -f $f ]] || continue
		rm -f -- "$f" &
		rmp+=($!)
	done
	((${#rmp[@]} == 0)) || wait "${rmp[@]}" || true
	rm -rf --one-file-system -- "$BASE"
	dbg "down: $BASE removed ($(elapsed "$t0") s)"
	[[ -n $quiet ]] || msg "site $inst at $BASE down in $(elapsed "$t0") s"
}
