/**
 * The benchmark programs, each a main class with its own {@code --name=value} options, run by
 * {@code bin/filetables bench <name>} (which finds them by class name) or with {@code java}: {@code
 * BatchWriteReadBenchmark}, {@code StreamingSinkBenchmark}, {@code VisibilityLatencyBenchmark},
 * {@code CompactionBenchmark}, {@code WatchBenchmark}, {@code KafkaClusterBenchmark}, {@code
 * S3CommitProtocolBenchmark}, {@code StorageBenchmark}, {@code SoakBenchmark}; see
 * docs/benchmarks.md for what each measures. Not a library and not in the job jar: only the
 * programs' classes and their {@code main} are public, because the launcher looks them up; their
 * helpers ({@code BenchArgs}, {@code BenchJobs}, {@code VisibilityWatcher}, ...) are
 * package-private.
 */
package dev.filetables.benchmarks;
