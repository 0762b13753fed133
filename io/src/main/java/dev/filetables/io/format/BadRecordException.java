package dev.filetables.io.format;

import java.io.IOException;

/** A record that cannot be decoded; the message names where it is and why. */
public class BadRecordException extends IOException {
  private static final long serialVersionUID = 1L;

  public BadRecordException(String message) {
    super(message);
  }

  public BadRecordException(String message, Throwable cause) {
    super(message, cause);
  }
}
