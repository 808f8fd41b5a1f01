#!/usr/bin/env bash
# ab.sh OLD NEW [TYPE:N:COUNT:UPLO]...: native:cta by two builds' CLIs in turns, one process each, native:blocked
# beside it as the yardstick (it does not change between them), on the cases named or the default list; benchmark
# lines and ratios to stdout, one "## OLD|NEW ..." header a case.
old=$1 new=$2
shift 2
cases=${*:-float64:128:4096:U float64:128:16384:U float64:96:4096:U float64:128:1024:U float64:128:1:U float64:128:4096:L float64:96:16384:L float64:128:1:L float64:224:256:L complex64:96:1024:U complex64:128:256:U complex128:128:1:U}
for c in $cases; do
	IFS=: read -r dt n b uplo <<<"$c"
	for v in old:$old new:$new; do
		echo "## ${v%%:*} $dt n=$n batch=$b uplo=$uplo"
		timeout 30 "${v#*:}/batchlas" bench potrf -dtype "$dt" -n "$n" -batch "$b" -uplo "$uplo" \
			-arms native:cta,native:blocked -time 100ms -count 5 2>&1 | grep -E "^Benchmark|^ratio|FAIL|SKIP|rror"
	done
done
