#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_jobs_pernode.sh: the job scripts' one-task-per-node steps
# (ios_on_storage, ios_host_facts in jobscripts/iostrata-jobs.sh) ask srun
# for as many tasks as the component has nodes.  srun ignores
# --ntasks-per-node=1 alone when the component has more tasks than nodes
# (checked on the local site: 6 tasks on 2 nodes ran 3 per node), so at
# 2 x 64 ranks iostrata-facts ran 128 times on two files and the layered
# element failed (bench/reference-shape, 2026-12-06).  With a fake srun
# that prints its arguments and runs nothing.
set -u

src=${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lib/tap.bash
source "$src/tests/lib/tap.bash"

echo "1..3"

# in_job CMD...: CMD in a shell that sourced the helpers, in a het job of
# 2 compute nodes x 64 tasks (group 0) and 1 storage node (group 1), with
# a fake srun that prints its arguments, one per line
in_job() {
	(
		# shellcheck source=jobscripts/iostrata-jobs.sh
		source "$src/jobscripts/iostrata-jobs.sh"
		srun() { printf 'srun'; printf ' %s' "$@"; echo; }
		export SLURM_HET_SIZE=2 SLURM_JOB_NUM_NODES_HET_GROUP_0=2 SLURM_NTASKS_HET_GROUP_0=128 \
			SLURM_JOB_NUM_NODES_HET_GROUP_1=1 SLURM_NTASKS_HET_GROUP_1=1
		IOS_EDIR=$tmp FACTS=true
		"$@"
	)
}

out=$(in_job ios_on_storage hostname)
if [[ $out == "srun --het-group=1 --ntasks-per-node=1 --nodes=1 --ntasks=1 --kill-on-bad-exit=1 hostname" ]]; then
	ok "ios_on_storage: one task on the storage component's one node"
else
	notok "ios_on_storage: $out"
fi
out=$(in_job ios_host_facts 2>&1)
if grep -q "^srun --het-group=0 --ntasks-per-node=1 --nodes=2 --ntasks=2 --kill-on-bad-exit=1 bash -c " <<<"$out" &&
	grep -q "^srun --het-group=1 --ntasks-per-node=1 --nodes=1 --ntasks=1 --kill-on-bad-exit=1 bash -c " <<<"$out"; then
	ok "ios_host_facts: one iostrata-facts per node of each component (2 compute, 1 storage), not one per task"
else
	notok "ios_host_facts: $out"
fi
# outside a heterogeneous job's variables (an older Slurm): the old form
out=$( (
	source "$src/jobscripts/iostrata-jobs.sh"
	srun() { printf 'srun'; printf ' %s' "$@"; echo; }
	unset SLURM_JOB_NUM_NODES_HET_GROUP_1
	ios_on_storage true
))
if [[ $out == "srun --het-group=1 --ntasks-per-node=1 --kill-on-bad-exit=1 true" ]]; then
	ok "without the component's node count: --ntasks-per-node=1 alone, as before"
else
	notok "without the node count: $out"
fi
((tap_fails == 0))
