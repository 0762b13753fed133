/**
 * Offline compaction ({@code bin/filetables compact}, {@code FileTableMaintenance.compact}): {@link
 * dev.filetables.io.compaction.OfflineCompaction} merges the small visible part files of partition
 * directories without a Beam job, swaps them for the merged file atomically for FileTables readers
 * ({@code ReplacedFiles} describes the protocol), then moves the replaced files to hidden grace
 * names so that every other reader sees each row once ({@code CompactionCleanup}, which also
 * finishes what a crash left). Public API: {@link dev.filetables.io.compaction.OfflineCompaction}
 * and its {@code Result}; {@code OfflineCompactionFailpoints} is a test hook.
 */
package dev.filetables.io.compaction;
