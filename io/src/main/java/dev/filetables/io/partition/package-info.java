/**
 * Partitions as directories: {@link dev.filetables.io.partition.PartitionPath} builds and parses
 * Hive-style {@code k1=v1/k2=v2} paths (Hive's escaping, the default partition name), and {@link
 * dev.filetables.io.partition.PartitionFilter} prunes partition directories by a SQL-like predicate
 * before they are listed ({@code FileTableIO.read(table).withPartitionFilter}). Public API: these
 * two. Internal: the filter's parser and nodes (package-private) and {@code PartitionValues} (typed
 * values to directory strings and back; {@code @Internal}, public for the transforms and test
 * fixtures).
 */
package dev.filetables.io.partition;
