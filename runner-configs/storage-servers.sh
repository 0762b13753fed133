#!/usr/bin/env bash
# Starts, shows and stops a local S3 API server (s3proxy) and a local HDFS (a NameNode and a DataNode)
# on loopback, for trying things out: the same servers the tests start (modules s3-server/ and
# hdfs-server/), here in the background and kept across runs of this script.
#
#   runner-configs/storage-servers.sh start    # prints the endpoints and AWS_* exports once both answer
#   eval "$(runner-configs/storage-servers.sh start)"   # ... straight into this shell
#   runner-configs/storage-servers.sh status   # the same lines again; exit code 3 when a server is down
#   runner-configs/storage-servers.sh stop     # SIGTERM, SIGKILL after STORAGE_STOP_TIMEOUT seconds
#
# Objects are plain files under $STORAGE_SERVERS_DIR/s3/data/<bucket>/<key>; HDFS keeps its NameNode
# and DataNode storage under $STORAGE_SERVERS_DIR/hdfs/data. Both survive stop and start; delete the
# directory for a fresh start. Logs: s3/s3-server.log, hdfs/hdfs-server.log.
#
# Environment (all optional):
#   STORAGE_SERVERS_DIR    state directory (default: target/storage-servers in the project)
#   STORAGE_S3_PORT        S3 API port (default 9000); STORAGE_HDFS_PORT NameNode port (default 8020)
#   STORAGE_S3_BUCKETS     buckets to create, space-separated (default "filetables")
#   STORAGE_S3_ACCESS_KEY, STORAGE_S3_SECRET_KEY
#                          the credentials the S3 server accepts (default: generated on the first
#                          start, then kept in $STORAGE_SERVERS_DIR/s3/credentials)
#   STORAGE_START_TIMEOUT  seconds to wait for the servers (default 180); STORAGE_STOP_TIMEOUT (30)
#   JAVA                   java binary; FILETABLES_MVN_OPTS extra Maven options (e.g. -o)
set -euo pipefail

ROOT="$(cd -P "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE="${STORAGE_SERVERS_DIR:-$ROOT/target/storage-servers}"
S3_PORT="${STORAGE_S3_PORT:-9000}"
HDFS_PORT="${STORAGE_HDFS_PORT:-8020}"
BUCKETS="${STORAGE_S3_BUCKETS:-filetables}"
START_TIMEOUT="${STORAGE_START_TIMEOUT:-180}"
STOP_TIMEOUT="${STORAGE_STOP_TIMEOUT:-30}"
JAVA="${JAVA:-java}"
# Any region: the server accepts every one, some clients need one.
REGION="us-east-1"

fail() {
  echo "storage-servers: error: $*" >&2
  exit 1
}

log_file() { # $1 = s3 | hdfs
  echo "$STATE/$1/$1-server.log"
}

pid_of() { # $1 = s3 | hdfs; prints the pid of a running server, or nothing
  local pid_file="$STATE/pid/$1.pid" pid
  pid="$(cat "$pid_file" 2>/dev/null)" || return 0
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    echo "$pid"
  fi
}

address_of() { # $1 = s3 | hdfs; what the server printed after READY
  grep -m1 '^READY ' "$(log_file "$1")" 2>/dev/null | cut -d' ' -f2
}

# The servers' class paths: each module's classes and runtime dependencies, written by its build.
ensure_classpaths() {
  local module stale=""
  for module in s3-server hdfs-server; do
    local file="$ROOT/$module/target/server.classpath"
    if [ ! -s "$file" ] || [ "$ROOT/$module/pom.xml" -nt "$file" ] \
        || [ -n "$(find "$ROOT/$module/src/main" -newer "$file" -print -quit)" ]; then
      stale="$stale,$module"
    fi
  done
  [ -z "$stale" ] && return 0
  command -v mvn >/dev/null 2>&1 || fail "Maven (mvn) is needed to build the server modules"
  echo "storage-servers: building ${stale#,} with Maven ..." >&2
  # shellcheck disable=SC2086
  # (Maven 3.8 prints stray colour resets even in batch mode: the sed drops them.)
  if ! mvn -q -B -ntp -Dstyle.color=never ${FILETABLES_MVN_OPTS:-} -f "$ROOT/pom.xml" \
      -pl "${stale#,}" compile 2>&1 | sed -e 's/\x1b\[[0-9;]*m//g' >&2; then
    fail "Maven could not build ${stale#,} (messages above)"
  fi
  for module in ${stale//,/ }; do
    touch "$ROOT/$module/target/server.classpath" # built now, whether Maven rewrote it or not
  done
}

# The credentials the S3 server accepts, into ACCESS_KEY and SECRET_KEY, kept in a file only the
# user can read.
choose_credentials() {
  local file="$STATE/s3/credentials"
  if [ -n "${STORAGE_S3_ACCESS_KEY:-}" ] || [ -n "${STORAGE_S3_SECRET_KEY:-}" ]; then
    if [ -z "${STORAGE_S3_ACCESS_KEY:-}" ] || [ -z "${STORAGE_S3_SECRET_KEY:-}" ]; then
      fail "give both STORAGE_S3_ACCESS_KEY and STORAGE_S3_SECRET_KEY, or neither"
    fi
    ACCESS_KEY="$STORAGE_S3_ACCESS_KEY"
    SECRET_KEY="$STORAGE_S3_SECRET_KEY"
  elif [ -s "$file" ]; then
    read_credentials
  else
    ACCESS_KEY="FT$(random_characters 'A-Z0-9' 18)"
    SECRET_KEY="$(random_characters 'A-Za-z0-9' 40)"
  fi
  (umask 077 && printf 'access_key=%s\nsecret_key=%s\n' "$ACCESS_KEY" "$SECRET_KEY" > "$file")
}

random_characters() { # $1 = tr character class, $2 = how many
  local all
  # a bounded read: cutting an endless stream would end it with SIGPIPE, which pipefail reports
  all="$(head -c 4096 /dev/urandom | LC_ALL=C tr -dc "$1")"
  echo "${all:0:$2}"
}

read_credentials() {
  ACCESS_KEY="$(sed -n 's/^access_key=//p' "$STATE/s3/credentials")"
  SECRET_KEY="$(sed -n 's/^secret_key=//p' "$STATE/s3/credentials")"
}

start_server() { # $1 = s3 | hdfs
  local kind="$1" log
  log="$(log_file "$kind")"
  local classpath
  classpath="$(cat "$ROOT/$kind-server/target/server.classpath")"
  if [ "$kind" = s3 ]; then
    local bucket
    for bucket in $BUCKETS; do
      mkdir -p "$STATE/s3/data/$bucket" # a bucket is a directory of the data directory
    done
    FILETABLES_S3_ACCESS_KEY="$ACCESS_KEY" FILETABLES_S3_SECRET_KEY="$SECRET_KEY" \
      nohup "$JAVA" -Xmx256m -XX:+UseSerialGC -cp "$classpath" dev.filetables.servers.s3.S3ServerMain \
      --basedir="$STATE/s3/data" --port="$S3_PORT" > "$log" 2>&1 < /dev/null &
  else
    nohup "$JAVA" -Xmx512m -XX:+UseSerialGC -cp "$classpath" dev.filetables.servers.hdfs.HdfsServerMain \
      --basedir="$STATE/hdfs/data" --port="$HDFS_PORT" > "$log" 2>&1 < /dev/null &
  fi
  echo $! > "$STATE/pid/$kind.pid"
  echo "storage-servers: started $kind (pid $!), log $log" >&2
}

stop_server() { # $1 = s3 | hdfs
  local kind="$1" pid
  pid="$(pid_of "$kind")"
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + STOP_TIMEOUT))
    while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
      sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
      kill -9 "$pid" 2>/dev/null || true
      echo "storage-servers: killed $kind (pid $pid) after ${STOP_TIMEOUT}s" >&2
    else
      echo "storage-servers: stopped $kind (pid $pid)" >&2
    fi
  fi
  rm -f "$STATE/pid/$kind.pid"
}

# What a user needs, as lines a shell can eval: comments and exports.
print_settings() {
  local s3 hdfs
  s3="$(address_of s3)"
  hdfs="$(address_of hdfs)"
  read_credentials
  local buckets
  buckets="$(find "$STATE/s3/data" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | tr '\n' ' ')"
  echo "# S3 API (s3proxy): $s3, path-style; buckets: ${buckets% } (objects: $STATE/s3/data/<bucket>/<key>)"
  echo "export AWS_ACCESS_KEY_ID=$ACCESS_KEY"
  echo "export AWS_SECRET_ACCESS_KEY=$SECRET_KEY"
  echo "export AWS_REGION=$REGION"
  echo "export AWS_ENDPOINT_URL=$s3"
  echo "# HDFS: $hdfs (one DataNode: clients should write with dfs.replication=1)"
}

start() {
  mkdir -p "$STATE"/{pid,s3/data,hdfs}
  STATE="$(cd -P "$STATE" && pwd)"
  ensure_classpaths
  choose_credentials
  local kind
  for kind in s3 hdfs; do
    if [ -n "$(pid_of "$kind")" ]; then
      echo "storage-servers: $kind runs already (pid $(pid_of "$kind"))" >&2
    else
      start_server "$kind"
    fi
  done
  local deadline=$((SECONDS + START_TIMEOUT))
  for kind in s3 hdfs; do
    while [ -z "$(address_of "$kind")" ]; do
      if [ -z "$(pid_of "$kind")" ]; then
        tail -n 30 "$(log_file "$kind")" >&2 || true
        stop_server s3
        stop_server hdfs
        fail "$kind exited while starting (log: $(log_file "$kind"))"
      fi
      if [ "$SECONDS" -ge "$deadline" ]; then
        stop_server s3
        stop_server hdfs
        fail "$kind was not ready within ${START_TIMEOUT}s (log: $(log_file "$kind"))"
      fi
      sleep 0.5
    done
  done
  echo "storage-servers: ready, state in $STATE" >&2
  print_settings
}

status() {
  local kind down=0 pid
  for kind in s3 hdfs; do
    pid="$(pid_of "$kind")"
    if [ -n "$pid" ]; then
      echo "storage-servers: $kind runs (pid $pid) at $(address_of "$kind")" >&2
    else
      echo "storage-servers: $kind is not running" >&2
      down=1
    fi
  done
  if [ "$down" = 0 ]; then
    print_settings
    return 0
  fi
  return 3
}

stop() {
  [ -d "$STATE/pid" ] || return 0
  stop_server hdfs
  stop_server s3
}

case "${1:-}" in
  start) start ;;
  status) status ;;
  stop) stop ;;
  *)
    echo "usage: $0 start|status|stop   (see the comment at the top of this script)" >&2
    exit 2
    ;;
esac
