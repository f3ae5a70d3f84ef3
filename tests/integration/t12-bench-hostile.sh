#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t12-bench-hostile: another user's plants in a shared sticky --dir never
# make iostrata-bench write, create or remove anything of somebody else.
# User nobody plants links (to a root file, to a world-writable file of
# user daemon, to a directory, dangling), a fifo, hard links, sidecar
# marks and a --dir link in a 1777 directory on local disk and on a tmpfs;
# root and user bin then run iostrata-bench (posix, singleton MPI, 1 MiB)
# with --dir there, also with --keep, also killed by SIGTERM, and the
# layered run's fio file.  Checked: sha256 of every victim unchanged, the
# planted entries unchanged, the refusal names the path and why, exit 2.
# Needs root and no Slurm site (runs as a plain process under any runner).

set -euo pipefail
T=t12-bench-hostile
. "$(dirname "$0")/lib.bash"

bench=$build/mpibench/iostrata-bench
[[ -x $bench ]] || skip "$bench not built (configure found no MPI?)"
[[ $EUID -eq 0 ]] || skip "needs root (runs as root and as other users)"
command -v setpriv >/dev/null || skip "setpriv missing"
ATT=65534 # nobody: the attacker
OWN=1     # daemon: owns a world-writable victim
RUN2=2    # bin: the second runner

make_work /var/tmp
tmpfs=$work/tmpfs

victims=$work/victims
mkdir -p "$victims/dir" "$work/home"
chmod 755 "$victims" "$victims/dir"
chmod 1777 "$work/home"
head -c 65536 /dev/urandom >"$victims/root.txt"
chmod 644 "$victims/root.txt"
head -c 65536 /dev/urandom >"$victims/daemon.txt"
chown "$OWN:$OWN" "$victims/daemon.txt"
chmod 666 "$victims/daemon.txt" # a world-writable file (a shared log)
sums() { tree_sums "$victims"; }
want_sums=$(sums)

AS_HOME=$work/home # as_user: the runners' HOME
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd "$work/home"

ncases=0 nclobbered=0
# planted DIR: "name type uid size ino nlink" of every entry
planted() { find "$1" -mindepth 1 -maxdepth 1 -printf '%f %y %U %s %i %n\n' | sort; }

# run_bench RUNNER DIR EXTRA-ARGS...: output in $out, exit code in $rc
run_bench() {
	local who=$1 dir=$2
	shift 2
	set +e
	out=$(as_user "$who" timeout 120 "$bench" --dir="$dir" --size=1M --bs=4k \
		--runtime=1 --reps=1 --output=none --summary=none --quiet \
		"$@" 2>&1)
	rc=$?
	set -e
}

# refused NAME RUNNER DIR WANT [EXTRA-ARGS...]: the run must fail with exit
# 2 naming WANT, victims and plants unchanged, nothing created.
refused() {
	local name=$1 who=$2 dir=$3 want=$4 before after
	shift 4
	ncases=$((ncases + 1))
	before=$(planted "$dir")
	run_bench "$who" "$dir" "$@"
	after=$(planted "$dir")
	if [[ $(sums) != "$want_sums" ]]; then
		nclobbered=$((nclobbered + 1))
		fail "$name (uid $who): a victim file changed: $out"
	fi
	[[ $before == "$after" ]] || fail "$name (uid $who): the planted entries changed: before: $before; after: $after; $out"
	[[ $rc == 2 ]] || fail "$name (uid $who): exit $rc, expected 2: $out"
	[[ $out == *"$want"* ]] || fail "$name (uid $who): message lacks \"$want\": $out"
	log "$name (uid $who): refused: ${out##*--dir: }"
}

fresh() { # fresh DIR: an empty sticky shared directory
	rm -rf -- "$1"
	mkdir -p "$1"
	chmod 1777 "$1"
}

hostile_cases() {
	local d=$1 who n=0
	for who in 0 "$RUN2"; do
		fresh "$d"
		as_user "$ATT" ln -s "$victims/root.txt" "$d/iostrata-bench.0"
		as_user "$ATT" touch "$d/iostrata-bench.0.iostrata"
		refused "link to a root file" "$who" "$d" 'is a symbolic link'
		refused "link to a root file, --keep" "$who" "$d" 'is a symbolic link' --keep

		fresh "$d"
		as_user "$ATT" ln -s "$victims/daemon.txt" "$d/iostrata-bench.0"
		as_user "$ATT" touch "$d/iostrata-bench.0.iostrata"
		refused "link to another user's file" "$who" "$d" 'is a symbolic link'

		fresh "$d"
		as_user "$ATT" ln -s "$victims/new.txt" "$d/iostrata-bench.0"
		as_user "$ATT" touch "$d/iostrata-bench.0.iostrata"
		refused "dangling link" "$who" "$d" 'is a symbolic link'

		fresh "$d"
		as_user "$ATT" ln -s "$victims/dir" "$d/iostrata-bench.0"
		as_user "$ATT" touch "$d/iostrata-bench.0.iostrata"
		refused "link to a directory" "$who" "$d" 'is a symbolic link'

		fresh "$d"
		as_user "$ATT" mkfifo "$d/iostrata-bench.0"
		as_user "$ATT" touch "$d/iostrata-bench.0.iostrata"
		refused "fifo" "$who" "$d" 'is a named pipe'

		fresh "$d"
		as_user "$ATT" ln -s "$victims/dir" "$d/bench"
		refused "--dir is nobody's link" "$who" "$d/bench" 'refusing to follow it' --keep

		if [[ $(stat -c %d "$d") == $(stat -c %d "$victims") ]]; then
			# what fs.protected_hardlinks=0 lets nobody do
			fresh "$d"
			ln "$victims/root.txt" "$d/iostrata-bench.0"
			as_user "$ATT" touch "$d/iostrata-bench.0.iostrata"
			refused "hard link to a root file" "$who" "$d" \
				"$([[ $who == 0 ]] && echo 'hard links' || echo 'owner uid 0')"
			fresh "$d"
			ln "$victims/daemon.txt" "$d/iostrata-bench.0"
			as_user "$ATT" touch "$d/iostrata-bench.0.iostrata"
			refused "hard link to another user's file" "$who" "$d" "owner uid $OWN"
		fi
	done

	# A kept file of root's: bin is refused and root's file stays.
	fresh "$d"
	run_bench 0 "$d" --keep
	[[ $rc == 0 && -f $d/iostrata-bench.0 ]] || fail "--keep run: exit $rc: $out"
	run_bench 0 "$d" --keep
	[[ $rc == 0 ]] || fail "--keep reuse of root's own file: exit $rc: $out"
	refused "root's kept file, run by another user" "$RUN2" "$d" 'owner uid 0'

	# nobody's stale sidecar where no file is: the run goes on and
	# neither the end of the run nor SIGTERM removes nobody's sidecar.
	for who in 0 "$RUN2"; do
		fresh "$d"
		as_user "$ATT" touch "$d/iostrata-bench.0.iostrata"
		ncases=$((ncases + 1))
		run_bench "$who" "$d"
		[[ $rc == 0 ]] || fail "stale sidecar (uid $who): exit $rc: $out"
		[[ -e $d/iostrata-bench.0.iostrata && ! -e $d/iostrata-bench.0 ]] ||
			fail "stale sidecar (uid $who): $(planted "$d")"
		ncases=$((ncases + 1))
		# setpriv execs the benchmark: $! is its pid
		as_argv "$who"
		"${AS_ARGV[@]}" "$bench" --dir="$d" --size=1M --bs=4k \
			--runtime=60 --reps=1 --output=none --summary=none \
			--quiet &
		pid=$!
		for _ in $(seq 100); do
			[[ -e $d/iostrata-bench.0 ]] && break
			sleep 0.1
		done
		[[ -e $d/iostrata-bench.0 ]] || fail "SIGTERM (uid $who): no rank file appeared"
		sleep 0.5
		kill -TERM "$pid"
		set +e
		wait "$pid"
		rc=$?
		set -e
		[[ $rc == 143 ]] || fail "SIGTERM (uid $who): exit $rc, expected 143 (killed by SIGTERM)"
		[[ ! -e $d/iostrata-bench.0 ]] || fail "SIGTERM (uid $who): rank file left: $(planted "$d")"
		[[ $(stat -c %U "$d/iostrata-bench.0.iostrata") == nobody ]] ||
			fail "SIGTERM (uid $who): nobody's sidecar was removed"
		log "stale sidecar (uid $who): run and SIGTERM leave it alone"
	done

	# The layered run's fio file (device layer only: no Ceph needed).
	if command -v fio >/dev/null; then
		fresh "$d"
		as_user "$ATT" ln -s "$victims/root.txt" "$d/iostrata-fio.0"
		as_user "$ATT" touch "$d/iostrata-fio.0.iostrata"
		ncases=$((ncases + 1))
		before=$(planted "$d")
		set +e
		out=$(timeout 300 "$bench" --layers --layers-device-dir="$d" \
			--layers-skip=network,protocol,fullstack,fullstack-lib \
			--size=1M --bs=64k --runtime=1 --reps=1 --output=none 2>&1)
		rc=$?
		set -e
		[[ $(sums) == "$want_sums" ]] || {
			nclobbered=$((nclobbered + 1))
			fail "layered fio file: a victim changed: $out"
		}
		[[ $(planted "$d") == "$before" ]] || fail "layered fio file: plants changed: $(planted "$d")"
		[[ $rc == 3 ]] || fail "layered fio file: exit $rc, expected 3 (a refused file: the layer could not run): $out"
		[[ $out == *'iostrata-fio.0" is a symbolic link'* ]] || fail "layered fio file: message: $out"
		log "layered fio file: planted link refused"
	fi
}

hostile_cases "$work/shared"
log "local disk ($(stat -f -c %T "$work")): done"
if mount_tmpfs "$tmpfs" size=64M,mode=755; then
	cp -a "$victims" "$tmpfs/victims"
	victims=$tmpfs/victims
	want_sums=$(sums)
	hostile_cases "$tmpfs/shared"
	log "tmpfs: done"
else
	log "no tmpfs here: local disk only"
fi
log "$ncases hostile cases, $nclobbered clobbered a file"
[[ $(sums) == "$want_sums" ]] || fail "a victim changed"
