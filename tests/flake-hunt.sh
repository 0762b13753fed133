#!/usr/bin/env bash
# Flake hunt (issue 13): runs every failure suite round after round with new random failure plans, one CPU hog
# beside (as on a 2-core CI machine), and appends "round<TAB>suite<TAB>pass|FAIL<TAB>seconds" to a summary file.
# A failed run's whole log is kept next to it. Stop it with `touch <out>/STOP` (it stops after the current suite).
#
#   tests/flake-hunt.sh [rounds] [first-round] [out-dir]      # defaults: 20 1 target/flake-hunt
#
# Build first from the project root (`mvn -B -ntp -q install -DskipTests`), or set MAVEN_REPO to a repository of
# its own when other builds share ~/.m2. Every run uses `mvn -o surefire:test` in tests/ on what is installed.
set -u
rounds=${1:-20}
first=${2:-1}
out=$(realpath -m "${3:-target/flake-hunt}")
cd "$(dirname "$0")" || exit 1
mkdir -p "$out"
repo_opt=()
[ -n "${MAVEN_REPO:-}" ] && repo_opt=(-Dmaven.repo.local="$MAVEN_REPO")
SUITES="SegmentCombineExactlyOnceTest ExactlyOnceUnderFailuresTest ExactlyOnceWithBundlesEndingInSnapshotsTest
CompactionExactlyOnceTest RollAtCommitExactlyOnceTest PartitionCommitUnderFailuresTest PartitionCommitAcrossRestoreTest
PartitionCommitAtEndOfInputTest EndOfInputExactlyOnceTest FinalCheckpointDeclinedTest StopWithSavepointRestoreTest
KafkaExactlyOnceTest WatchedSourceFlinkTest NativeFlinkReadsStreamingOutputTest"
yes > /dev/null &
hog=$!
trap 'kill $hog 2>/dev/null' EXIT
for round in $(seq "$first" "$rounds"); do
  for suite in $SUITES; do
    [ -f "$out/STOP" ] && exit 0
    start=$(date +%s)
    if timeout 900 mvn -B -ntp -q -o "${repo_opt[@]}" surefire:test -Dtest="$suite" \
        -Dfiletables.failure.seed=random -Dsurefire.failIfNoSpecifiedTests=false > "$out/current.log" 2>&1; then
      result=pass
    else
      result=FAIL
      cp "$out/current.log" "$out/FAIL-$suite-$round.log"
    fi
    printf '%s\t%s\t%s\t%s\n' "$round" "$suite" "$result" "$(( $(date +%s) - start ))" >> "$out/summary.tsv"
  done
done
