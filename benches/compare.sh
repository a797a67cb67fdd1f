#!/usr/bin/env bash
# Old against new, side by side: builds one bench from a given commit in a temporary
# folder and from this checkout, then runs the two alternately, so that the machine's
# load falls on both alike. Quote ratios between the two, not the figures of one run.
#
#   benches/compare.sh COMMIT [BENCH] [ROUNDS]
#
# BENCH is a bench target (default `throughput`), ROUNDS the number of alternations
# (default 3). The benches' own knobs (FERRY_BENCH_GAMES, FERRY_BENCH_THREADS, ...) and
# TMPDIR (e.g. /dev/shm for a database in memory) reach both runs alike. The old build's
# folder is kept between calls in ${FERRY_COMPARE_DIR:-$TMPDIR/ferry-compare}/COMMIT, so
# a second comparison against the same commit builds nothing again.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 3 ]; then
    echo "usage: benches/compare.sh COMMIT [BENCH] [ROUNDS]" >&2
    exit 2
fi
bench=${2:-throughput}
rounds=${3:-3}
case $rounds in
    '' | *[!0-9]*) echo "ROUNDS must be a whole number, not '$rounds'" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$here" rev-parse --verify --quiet "$1^{commit}") || {
    echo "'$1' names no commit of this repository" >&2
    exit 2
}
short=${commit:0:7}
old=${FERRY_COMPARE_DIR:-${TMPDIR:-/tmp}/ferry-compare}/$short
if [ ! -f "$old/Cargo.toml" ]; then
    mkdir -p "$old"
    git -C "$here" archive "$commit" | tar -x -C "$old"
fi

# The path of the bench's binary, built in release (the bench profile) in folder $1.
build() {
    (cd "$1" && cargo bench --bench "$bench" --no-run 2>&1) |
        tee /dev/stderr |
        sed -n 's/.*Executable.*(\(.*\)).*/\1/p' | tail -n 1
}

echo "== building $bench at $short (in $old)" >&2
old_bin=$(build "$old")
echo "== building $bench here ($(git -C "$here" rev-parse --short HEAD), with the work tree's changes)" >&2
new_bin=$(build "$here")
[ -n "$old_bin" ] && [ -n "$new_bin" ] || {
    echo "a build gave no bench binary (does $short have a bench named '$bench'?)" >&2
    exit 1
}
case $old_bin in /*) ;; *) old_bin=$old/$old_bin ;; esac
case $new_bin in /*) ;; *) new_bin=$here/$new_bin ;; esac

for round in $(seq 1 "$rounds"); do
    for side in old new; do
        if [ $side = old ]; then bin=$old_bin; dir=$old; name=$short; else bin=$new_bin; dir=$here; name=here; fi
        echo "== round $round, $name"
        (cd "$dir" && "$bin" --bench)
    done
done
