package dev.filetables.io.format;

/**
 * Where the rows of one input of a merge are in the merged file ({@link FileMerger#mergePlaced}).
 *
 * @param rows the range of the merged file that, read with the format's ranged reader ({@link
 *     FileFormat#createReader}), yields exactly this input's rows, in their order; empty for an
 *     input without rows
 * @param shift byte {@code x} of the input's encoded rows is byte {@code x + shift} of the merged
 *     file: the merge copies them keeping their layout, so a range of the input that reads some of
 *     its rows reads the same rows of the merged file once moved by {@code shift} (how the rows of
 *     an input that was itself a merged file are placed)
 */
public record InputPlacement(ByteRange rows, long shift) {}
