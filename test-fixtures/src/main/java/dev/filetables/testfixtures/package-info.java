/**
 * Test support, not product code: {@code TableContents} (what a reader of a table sees right now,
 * every visible file read completely; the oracle of the tests and benchmarks) and {@code
 * SessionCluster} (a scripted Flink session cluster in child JVMs). Used by the {@code tests} and
 * {@code benchmarks} modules only; both classes are public for them alone ({@code @Internal}).
 */
package dev.filetables.testfixtures;
