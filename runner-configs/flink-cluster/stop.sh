#!/usr/bin/env bash
# Stops the processes start.sh started (TaskManagers first, then the JobManager), by the pids in
# $FLINK_CLUSTER_DIR/pid: SIGTERM, then SIGKILL after FLINK_STOP_TIMEOUT seconds (default 30).
# Running jobs are not saved: stop them with a savepoint first (POST /jobs/<id>/stop, see README).
set -uo pipefail

WORK="${FLINK_CLUSTER_DIR:-/tmp/filetables-flink-cluster}"
TIMEOUT="${FLINK_STOP_TIMEOUT:-30}"

stop_process() { # $1 = pid file
  local pid_file="$1" pid
  pid="$(cat "$pid_file" 2>/dev/null)" || return 0
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null
    local deadline=$((SECONDS + TIMEOUT))
    while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
      sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
      kill -9 "$pid" 2>/dev/null
      echo "flink-cluster: killed $(basename "$pid_file" .pid) (pid $pid) after ${TIMEOUT}s" >&2
    else
      echo "flink-cluster: stopped $(basename "$pid_file" .pid) (pid $pid)" >&2
    fi
  fi
  rm -f "$pid_file"
}

[ -d "$WORK/pid" ] || exit 0
for pid_file in "$WORK"/pid/taskmanager-*.pid; do
  [ -e "$pid_file" ] && stop_process "$pid_file"
done
[ -e "$WORK/pid/jobmanager.pid" ] && stop_process "$WORK/pid/jobmanager.pid"
exit 0
