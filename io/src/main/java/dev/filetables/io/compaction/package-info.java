/**
 * Offline compaction ({@code bin/filetables compact}, {@code FileTableMaintenance.compact}): {@link
 * dev.filetables.io.compaction.OfflineCompaction} merges the small visible part files of one
 * partition directory without a Beam job, and swaps them for the merged file atomically for
 * FileTables readers ({@code ReplacedFiles} describes the protocol). Public API: {@link
 * dev.filetables.io.compaction.OfflineCompaction} and its {@code Result}.
 */
package dev.filetables.io.compaction;
