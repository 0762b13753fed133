package dev.filetables.io.format;

import java.io.Serializable;

/** A half-open byte range {@code [start, end)} of a file. */
public final class ByteRange implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long start;
  private final long end;

  public ByteRange(long start, long end) {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("Invalid byte range [" + start + ", " + end + ")");
    }
    this.start = start;
    this.end = end;
  }

  public static ByteRange of(long start, long end) {
    return new ByteRange(start, end);
  }

  public long start() {
    return start;
  }

  public long end() {
    return end;
  }

  public long length() {
    return end - start;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ByteRange && ((ByteRange) o).start == start && ((ByteRange) o).end == end;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(start) * 31 + Long.hashCode(end);
  }

  @Override
  public String toString() {
    return "[" + start + ", " + end + ")";
  }
}
