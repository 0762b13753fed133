/**
 * The bounded read: list files ({@code ListFilesFn}), cut them into ranges ({@code SplitFileFn}),
 * read the ranges ({@code ReadRanges}, {@code FileRangeReader}), with bad records handled by the
 * table's policy ({@code BadRecordLog}, {@code DeadLetterTable}). Internal.
 */
package dev.filetables.transforms.source;
