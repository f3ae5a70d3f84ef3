# SPDX-License-Identifier: GPL-2.0-or-later
#
# report_h5py.bash: what the shell tests that edit results files with h5py
# and run iostrata-report share (test_report_shapes.sh,
# test_report_markdown.sh).  Sourced after `set -u`; sets src, build,
# report, synth, PY and dir (a fresh 0755 directory removed at exit), or
# prints a TAP skip and exits when the report, the synthetic writer or
# h5py is missing.  REPORT=path and SYNTH=path override the binaries.
src=${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${IOSTRATA_BUILDDIR:-$src/build}
report=${REPORT:-$build/report/iostrata-report}
synth=${SYNTH:-$build/tests/tools/iostrata-h5synth}
PY=/usr/bin/python3

if [ ! -x "$report" ] || [ ! -x "$synth" ] || ! $PY -c 'import h5py' 2>/dev/null; then
	echo "1..0 # SKIP no $report, $synth or $PY with h5py"
	exit 0
fi
dir=$(mktemp -d "/tmp/$(basename "$0" .sh).XXXXXX")
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
# the reader parses as the file's owner when run as root: let it read
umask 022
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1
