package dev.filetables.pipelines;

import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.table.TableDefinitionException;
import java.io.FileNotFoundException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Finds the one sentence worth showing for a failure. Runners wrap the real problem several times
 * ("Job execution failed" → "Recovery is suppressed" → the DoFn's exception), so the message of our
 * own exception types is preferred wherever it sits in the cause chain, else the innermost cause.
 */
final class ErrorMessages {
  private ErrorMessages() {}

  static String oneLine(Throwable failure) {
    Throwable innermost = failure;
    Map<Throwable, Boolean> seen = new IdentityHashMap<>();
    for (Throwable t = failure; t != null && seen.put(t, true) == null; t = t.getCause()) {
      String known = describeKnown(t);
      if (known != null) {
        return flatten(known);
      }
      innermost = t;
    }
    String message = innermost.getMessage();
    String type = innermost.getClass().getSimpleName();
    if (message == null || message.isBlank()) {
      return type;
    }
    boolean selfExplaining =
        innermost instanceof IllegalArgumentException || innermost instanceof IllegalStateException;
    return flatten(selfExplaining ? message : type + ": " + message);
  }

  private static String describeKnown(Throwable t) {
    if (t instanceof CliException
        || t instanceof TableDefinitionException
        || t instanceof BadRecordException) {
      return t.getMessage();
    }
    if (t instanceof NoSuchFileException || t instanceof FileNotFoundException) {
      return "file not found: " + t.getMessage();
    }
    if (t instanceof AccessDeniedException) {
      return "permission denied: " + t.getMessage();
    }
    return null;
  }

  private static String flatten(String message) {
    return message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ").strip();
  }
}
