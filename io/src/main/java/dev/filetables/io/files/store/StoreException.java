package dev.filetables.io.files.store;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A store that cannot be used at all: its endpoint does not answer, it refuses the credentials, the
 * bucket does not exist. Unchecked on purpose: the JDK's {@code Files.exists} and {@code
 * Files.isDirectory} turn every {@link IOException} into "no such file", and a table in a bucket
 * that does not exist must fail with this message, not read as an empty table.
 */
public final class StoreException extends UncheckedIOException {
  private static final long serialVersionUID = 1L;

  public StoreException(String message, IOException cause) {
    super(message, cause);
  }

  StoreException(String message, Throwable cause) {
    this(message, new IOException(cause.getMessage(), cause));
  }
}
