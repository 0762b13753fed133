/**
 * The embedded Flink cluster, {@code LocalFlinkCluster}: a Flink MiniCluster in this JVM that
 * pipelines are submitted to as to a remote cluster, so that the caller holds the job (watch its
 * checkpoints, stop it with a savepoint, restore it). Used by the Kafka demo, the tests and the
 * benchmarks. Internal: public only for those modules ({@code @Internal}).
 */
package dev.filetables.pipelines.flink;
