package dev.filetables.io.format;

/**
 * A {@link FileFormat} that knows how to merge its own files. Formats outside FileTables implement
 * it to avoid the decode-and-re-encode fallback of {@link FileMergers#of}.
 */
public interface MergeableFormat {

  /** The merger for files of this format. */
  FileMerger merger();
}
