#!/usr/bin/env bash
# Starts a standalone Flink 1.19 session cluster on loopback: one JobManager
# (StandaloneSessionClusterEntrypoint) and FLINK_TASK_MANAGERS TaskManagers (TaskManagerRunner), each
# its own JVM, from the Flink jars Maven resolves (pom.xml beside this script); no Flink distribution.
# Returns once the REST endpoint answers and every TaskManager has registered. The JobManager serves
# Flink's web dashboard on the REST port.
#
#   runner-configs/flink-cluster/start.sh          # dashboard and REST on http://127.0.0.1:8081/
#   FLINK_TASK_MANAGERS=2 runner-configs/flink-cluster/start.sh
#   runner-configs/flink-cluster/stop.sh
#
# Environment (all optional):
#   FLINK_CLUSTER_DIR    work directory: log/, pid/, checkpoints/, savepoints/, tmp/
#                        (default /tmp/filetables-flink-cluster)
#   FLINK_REST_PORT      REST port (default 8081); FLINK_RPC_PORT JobManager RPC port (default 6123)
#   FLINK_TASK_MANAGERS  number of TaskManagers (default 1; 2 slots each, see config.yaml), each with
#                        resource id, log and pid file taskmanager-<n> and free RPC and data ports
#   FLINK_START_TIMEOUT  seconds to wait for the cluster (default 180)
#   JAVA                 java binary; FILETABLES_MVN_OPTS extra Maven options (e.g. -o)
#
# The JobManager and TaskManagers inherit this script's environment unchanged: storage settings
# exported before start.sh (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, HADOOP_CONF_DIR, ...)
# reach every process that runs a job's tasks. Neither script prints the environment.
set -euo pipefail

CONF_DIR="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WORK="${FLINK_CLUSTER_DIR:-/tmp/filetables-flink-cluster}"
REST_PORT="${FLINK_REST_PORT:-8081}"
RPC_PORT="${FLINK_RPC_PORT:-6123}"
TASK_MANAGERS="${FLINK_TASK_MANAGERS:-1}"
TIMEOUT="${FLINK_START_TIMEOUT:-180}"
JAVA="${JAVA:-java}"

fail() {
  echo "flink-cluster: error: $*" >&2
  exit 1
}

[[ "$TASK_MANAGERS" =~ ^[1-9][0-9]*$ ]] || fail "FLINK_TASK_MANAGERS must be a number of TaskManagers (1 or more), not '$TASK_MANAGERS'"
command -v curl >/dev/null 2>&1 || fail "curl is needed to check that the cluster's REST endpoint answers"
command -v mvn >/dev/null 2>&1 || fail "Maven (mvn) is needed to resolve the Flink class path"

mkdir -p "$WORK"/{log,pid,checkpoints,savepoints,tmp}
WORK="$(cd -P "$WORK" && pwd)"

for pid_file in "$WORK"/pid/*.pid; do
  [ -e "$pid_file" ] || continue
  if kill -0 "$(cat "$pid_file")" 2>/dev/null; then
    fail "a cluster of $WORK is running (pid $(cat "$pid_file") in $pid_file); stop it with stop.sh first"
  fi
  rm -f "$pid_file"
done

# The class path: Flink's jars only (jobs bring their own libraries in the job jar). Cached next to
# the pom, resolved again when the pom changes.
CLASSPATH_FILE="$CONF_DIR/target/classpath.txt"
if [ ! -s "$CLASSPATH_FILE" ] || [ "$CONF_DIR/pom.xml" -nt "$CLASSPATH_FILE" ]; then
  mkdir -p "$CONF_DIR/target"
  echo "flink-cluster: resolving the Flink class path with Maven ..." >&2
  tmp_file="$CLASSPATH_FILE.$$"
  # shellcheck disable=SC2086
  # (Maven 3.8 prints stray colour resets even in batch mode: the sed drops them.)
  if ! mvn -q -B -ntp -Dstyle.color=never ${FILETABLES_MVN_OPTS:-} -f "$CONF_DIR/pom.xml" \
      dependency:build-classpath -Dmdep.outputFile="$tmp_file" -Dmdep.includeScope=runtime 2>&1 \
      | sed -e 's/\x1b\[[0-9;]*m//g' >&2; then
    rm -f "$tmp_file"
    fail "Maven could not resolve the Flink class path (messages above)"
  fi
  mv "$tmp_file" "$CLASSPATH_FILE"
fi
CLASSPATH="$(cat "$CLASSPATH_FILE")"

# Per-run settings on top of config.yaml.
DYNAMIC=(
  -D "rest.port=$REST_PORT"
  -D "jobmanager.rpc.port=$RPC_PORT"
  -D "state.checkpoints.dir=file://$WORK/checkpoints"
  -D "state.savepoints.dir=file://$WORK/savepoints"
  -D "io.tmp.dirs=$WORK/tmp"
  -D "web.tmpdir=$WORK/tmp"
)

# What Flink's own scripts give its JVMs on Java 17 (env.java.opts.all of Flink 1.19's default
# configuration), plus the opens Beam needs.
JAVA_OPENS=(
  --add-exports=java.base/sun.net.util=ALL-UNNAMED
  --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.text=ALL-UNNAMED
  --add-opens=java.base/java.time=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED
)

# Memory: Flink's BashJavaUtils turns config.yaml's process sizes into JVM options and the derived
# memory settings, exactly as Flink's jobmanager.sh/taskmanager.sh do.
resource_params() { # $1 = GET_JM_RESOURCE_PARAMS | GET_TM_RESOURCE_PARAMS; prints two lines
  local output
  output="$("$JAVA" -cp "$CLASSPATH" org.apache.flink.runtime.util.bash.BashJavaUtils "$1" \
              --configDir "$CONF_DIR" "${DYNAMIC[@]}" 2>&1)" \
    || fail "Flink could not size the memory of the processes ($1): $output"
  echo "$output" | grep '^BASH_JAVA_UTILS_EXEC_RESULT:' | sed 's/^BASH_JAVA_UTILS_EXEC_RESULT://'
}

# The process inherits this script's environment (no env -i): see the header.
start_process() { # $1 = name, $2 = main class, $3 = JVM options, $4 = memory settings, $5... = -D options
  local name="$1" main="$2" jvm_options="$3" memory="$4"
  shift 4
  # shellcheck disable=SC2086  # the JVM and memory options are space-separated words
  nohup "$JAVA" $jvm_options "${JAVA_OPENS[@]}" \
    -Dorg.slf4j.simpleLogger.showDateTime=true \
    -Dorg.slf4j.simpleLogger.dateTimeFormat="yyyy-MM-dd HH:mm:ss,SSS" \
    -Dorg.slf4j.simpleLogger.logFile="$WORK/log/$name.log" \
    -Dlog.file="$WORK/log/$name.log" \
    -cp "$CLASSPATH" "$main" --configDir "$CONF_DIR" "${DYNAMIC[@]}" "$@" $memory \
    > "$WORK/log/$name.out" 2>&1 < /dev/null &
  echo $! > "$WORK/pid/$name.pid"
  echo "flink-cluster: started $name (pid $!), log $WORK/log/$name.log" >&2
}

mapfile -t jm < <(resource_params GET_JM_RESOURCE_PARAMS)
start_process jobmanager org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint \
  "${jm[0]:-}" "${jm[1]:-}"
mapfile -t tm < <(resource_params GET_TM_RESOURCE_PARAMS)
for i in $(seq 1 "$TASK_MANAGERS"); do
  # the resource id is the name the REST API and the dashboard list: it matches the pid and log file
  start_process "taskmanager-$i" org.apache.flink.runtime.taskexecutor.TaskManagerRunner \
    "${tm[0]:-}" "${tm[1]:-}" -D "taskmanager.resource-id=taskmanager-$i"
done

# Ready when GET /taskmanagers lists every TaskManager.
deadline=$((SECONDS + TIMEOUT))
while true; do
  for pid_file in "$WORK"/pid/*.pid; do
    if ! kill -0 "$(cat "$pid_file")" 2>/dev/null; then
      name="$(basename "$pid_file" .pid)"
      tail -n 30 "$WORK/log/$name.out" "$WORK/log/$name.log" >&2 2>/dev/null || true
      "$CONF_DIR/stop.sh" >/dev/null 2>&1 || true
      fail "$name exited while the cluster started (log: $WORK/log/$name.log)"
    fi
  done
  registered="$(curl -sf "http://127.0.0.1:$REST_PORT/taskmanagers" 2>/dev/null \
                | grep -o '"id":' | wc -l || true)"
  if [ "${registered:-0}" -ge "$TASK_MANAGERS" ]; then
    break
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    "$CONF_DIR/stop.sh" >/dev/null 2>&1 || true
    fail "the cluster was not ready within ${TIMEOUT}s (logs in $WORK/log)"
  fi
  sleep 1
done
echo "flink-cluster: ready, dashboard and REST http://127.0.0.1:$REST_PORT/, $TASK_MANAGERS task manager(s), work dir $WORK" >&2
