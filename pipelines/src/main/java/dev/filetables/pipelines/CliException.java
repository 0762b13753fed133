package dev.filetables.pipelines;

/**
 * A failure the user can fix (bad arguments, missing file, unknown preset). The CLI prints only its
 * message, as one line, and exits with {@link #exitCode()}.
 */
class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Exit code for a command line that cannot be understood. */
  static final int USAGE = 2;

  /** Exit code for a command that was understood but failed. */
  static final int FAILURE = 1;

  private final int exitCode;

  CliException(String message) {
    this(message, FAILURE, null);
  }

  CliException(String message, Throwable cause) {
    this(message, FAILURE, cause);
  }

  private CliException(String message, int exitCode, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  /** A command line that cannot be understood; exits with {@link #USAGE}. */
  static CliException usage(String message) {
    return new CliException(message, USAGE, null);
  }

  int exitCode() {
    return exitCode;
  }
}
