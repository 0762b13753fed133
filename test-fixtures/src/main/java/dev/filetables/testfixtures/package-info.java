/**
 * Test support, not product code: {@code TableContents} (what a reader of a table sees right now,
 * every visible file read completely; the oracle of the tests and benchmarks), {@code
 * SessionCluster} (a scripted Flink session cluster in child JVMs), {@code CliProcess} (the command
 * line in a process of its own, to kill and start again) and {@code RunCheckpoints} (the
 * checkpoints of a {@code run} as its state directory shows them). Used by the {@code tests} and
 * {@code benchmarks} modules only; the classes are public for them alone ({@code @Internal}).
 */
package dev.filetables.testfixtures;
