package dev.filetables.io.partition.time;

/**
 * A partition whose time cannot be extracted; the message names the values, pattern and formatter.
 */
public class PartitionTimeException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public PartitionTimeException(String message) {
    super(message);
  }

  public PartitionTimeException(String message, Throwable cause) {
    super(message, cause);
  }
}
