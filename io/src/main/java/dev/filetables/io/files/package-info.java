/**
 * A table's files on disk: the names a write gives them ({@code PartFileName}: hidden {@code
 * .part-….inprogress} while written, visible {@code part-<uuid>-<writer>-<counter><ext>}; {@code
 * CompactedFileName}, {@code IntentFileName}), the operations that create and publish them without
 * overwriting ({@code FileOps}), and the listings every reader and committer walks level by level,
 * pruned by a partition filter ({@code TableListing}, {@code TablePartitions}; files an offline
 * compaction replaced are left out by {@code ReplacedFiles}; readers open listed files with {@code
 * ListedFiles}, which follows a replaced file to its hidden grace name and, after the grace period,
 * to the merged file holding its rows; {@code DirectoryEntries} lists one directory with the
 * attributes listings see). Internal: the public classes are public only for the transforms, the
 * CLI, the test fixtures and tests ({@code @Internal}); {@code PartitionWalker} and {@code
 * IgnoredEntry} are package-private.
 */
package dev.filetables.io.files;
