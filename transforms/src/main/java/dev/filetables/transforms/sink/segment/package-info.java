/**
 * The hidden files behind one open part file: a segment per bundle ({@code SegmentWriter}), their
 * names and lifecycle ({@code SegmentFiles}), when they are combined while the file is open ({@code
 * SegmentCombiner}) and how they become the part file on roll ({@code SegmentKind}, {@code
 * SpillMerger}, {@code FileRowCoder}). Internal.
 */
package dev.filetables.transforms.sink.segment;
