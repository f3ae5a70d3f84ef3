#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_report_markdown.sh: every Markdown output of iostrata-report (accept
# --format=md, accept --profile=nersc --format=md) given other users' text:
# a results file whose rank host is <img src=x onerror=alert(...)> with
# Markdown's | ` * _ [ ] in it, the same in the file's name, and a tier
# named with HTML and a pipe.  The output must hold no raw < or > (a
# renderer that passes HTML, MkDocs or GitLab, would run it), every table
# row exactly its header's cells (no unescaped |), and no unescaped
# backtick, * or [ from the input.  Before the shared escaper accept
# escaped only | and the NERSC profile nothing at all.
# REPORT=path overrides the binary.
set -u

. "$(dirname "$0")/report_h5py.bash"

hostile='<img src=x onerror=alert(document.domain)>|`*_[x](y)'
f=$dir/$hostile.h5
"$synth" --nodes 1 --ranks-per-node 2 --phases write,read --reps 2 "$f" >/dev/null || {
	echo "Bail out! iostrata-h5synth failed"
	exit 1
}
$PY - "$f" "$hostile" <<'EOF' || { echo "Bail out! h5py could not set the host"; exit 1; }
import sys
import h5py
f = h5py.File(sys.argv[1], 'r+')
a = f['ranks'][...]
for i in range(len(a)):
    a[i]['host'] = sys.argv[2].encode()
f['ranks'][...] = a
f.close()
EOF
printf '[tier "t<b>bold</b>|x"]\nseq_write_bw = 1M\nseq_read_bw = 1M\n' >"$dir/tiers.ini"

# check OUT: no raw < >, table rows with their header's cells, no
# unescaped ` * [ outside our own **STATUS**
check_md() {
	$PY - "$1" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
bad = []
if '<' in text or '>' in text:
    bad.append('raw < or >')
def cells(line):
    # unescaped pipes
    return len(re.findall(r'(?<!\\)\|', line))
header = None
for line in text.splitlines():
    if line.startswith('| ') or line.startswith('|-') or line.startswith('| -'):
        if header is None:
            header = cells(line)
        elif cells(line) != header:
            bad.append('%d cells, the header %d: %s' % (cells(line), header, line))
    else:
        header = None
    plain = re.sub(r'\*\*(PASS|FAIL|NOTRUN)\*\*', '', line)
    for ch in '`*[':
        if re.search(r'(?<!\\)' + re.escape(ch), plain):
            bad.append('unescaped %s: %s' % (ch, line))
            break
for b in bad:
    print('#', b)
sys.exit(1 if bad else 0)
EOF
}

echo "1..4"
n=0
for cmd in "accept --tiers=$dir/tiers.ini --format=md" "accept --profile=nersc --format=md"; do
	read -ra args <<<"$cmd"
	"$report" "${args[@]}" "$f" >"$dir/out" 2>"$dir/err"
	rc=$?
	n=$((n + 1))
	if [ $rc -le 3 ] && grep -q '^| ' "$dir/out"; then
		echo "ok $n - $cmd: a table (exit $rc)"
	else
		echo "not ok $n - $cmd: no table (exit $rc)"
		sed 's/^/# /' "$dir/err" | head -5
	fi
	n=$((n + 1))
	if check_md "$dir/out"; then
		echo "ok $n - $cmd: the host, file and tier names escaped"
	else
		echo "not ok $n - $cmd: other users' text reaches the Markdown raw"
		sed 's/^/# /' "$dir/out" | head -12
	fi
done
