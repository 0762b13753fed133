package dev.filetables.io.format;

import java.io.IOException;

/**
 * A record that cannot be decoded; the message names where it is and why.
 *
 * <p>Readers also say, when they know it, where the record starts ({@link #lineNumber()}, {@link
 * #byteOffset()}), its raw bytes ({@link #raw()}) and the bare reason ({@link #reason()}), so that
 * a caller can route the record (skip it, write it to a dead-letter table) instead of failing. When
 * {@link #readerCanContinue()} is true the reader has consumed the bad record and {@code next()}
 * may be called again for the records after it; otherwise the rest of the range cannot be read (a
 * corrupt block).
 */
public class BadRecordException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String reason;
  private final long lineNumber;
  private final long byteOffset;
  private final byte[] raw;
  private final boolean readerCanContinue;

  public BadRecordException(String message) {
    this(message, null);
  }

  public BadRecordException(String message, Throwable cause) {
    super(message, cause);
    this.reason = message;
    this.lineNumber = -1;
    this.byteOffset = -1;
    this.raw = null;
    this.readerCanContinue = false;
  }

  private BadRecordException(
      String message,
      Throwable cause,
      String reason,
      long lineNumber,
      long byteOffset,
      byte[] raw,
      boolean readerCanContinue) {
    super(message, cause);
    this.reason = reason;
    this.lineNumber = lineNumber;
    this.byteOffset = byteOffset;
    this.raw = raw;
    this.readerCanContinue = readerCanContinue;
  }

  /**
   * A bad record the reader has skipped past: {@code next()} continues with the following record.
   *
   * @param lineNumber 1-based line in the file, or -1 when unknown (a range not starting at 0)
   * @param byteOffset file offset of the record's first byte (or of its block), or -1
   * @param raw the record's bytes as stored, or null (columnar formats)
   */
  public static BadRecordException skippable(
      String message, String reason, long lineNumber, long byteOffset, byte[] raw) {
    return new BadRecordException(message, null, reason, lineNumber, byteOffset, raw, true);
  }

  /** A failure after which the rest of the range cannot be read (e.g. a corrupt Avro block). */
  public static BadRecordException fatal(
      String message, String reason, long byteOffset, Throwable cause) {
    return new BadRecordException(message, cause, reason, -1, byteOffset, null, false);
  }

  /** Why the record is bad, without its position (the message has both). */
  public String reason() {
    return reason;
  }

  /** 1-based line of the record in its file; -1 when unknown. */
  public long lineNumber() {
    return lineNumber;
  }

  /** File offset of the record (or of the block holding it); -1 when unknown. */
  public long byteOffset() {
    return byteOffset;
  }

  /** The record's bytes as stored in the file, or null (columnar formats, unknown). */
  public byte[] raw() {
    return raw;
  }

  /** True when the reader consumed the bad record and can read the records after it. */
  public boolean readerCanContinue() {
    return readerCanContinue;
  }
}
