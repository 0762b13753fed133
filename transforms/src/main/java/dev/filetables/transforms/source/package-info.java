/**
 * The bounded read: list files ({@code ListFilesFn}), cut them into ranges ({@code SplitFileFn}),
 * read the ranges ({@code ReadRanges}, {@code FileRangeReader}), with bad records handled by the
 * table's policy ({@code BadRecordLog}, {@code DeadLetterTable}). What every read shares: its
 * output, rows and bad records ({@code ReadResult}), and {@code ReadSteps}. A read never writes its
 * dead letters: {@code dev.filetables.transforms.ReadWithDeadLetters} does, so the source packages
 * do not depend on {@code FileTableIO}. Internal.
 */
package dev.filetables.transforms.source;
