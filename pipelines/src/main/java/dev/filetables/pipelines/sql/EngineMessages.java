package dev.filetables.pipelines.sql;

/** The message of the SQL engine's innermost cause, which names the problem. */
final class EngineMessages {
  private EngineMessages() {}

  static String of(Throwable failure) {
    Throwable cause = failure;
    String message = failure.getMessage();
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
      if (cause.getMessage() != null) {
        message = cause.getMessage();
      }
    }
    return message == null ? failure.getClass().getSimpleName() : message.split("\n")[0];
  }
}
