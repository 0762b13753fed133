package dev.filetables.pipelines;

import dev.filetables.io.format.BadRecordException;
import dev.filetables.io.table.TableDefinitionException;
import java.io.FileNotFoundException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the one sentence worth showing for a failure. Runners wrap the real problem several times
 * ("Job execution failed" → "Recovery is suppressed" → UserCodeException → the DoFn's exception),
 * so:
 *
 * <ol>
 *   <li>the message of our own exception types (bad definition, bad record, CLI error) wherever it
 *       sits in the cause chain;
 *   <li>else the innermost exception thrown by FileTables code, which says which file or row failed
 *       (a library's exception below it rarely does);
 *   <li>else the innermost cause, with its type when the message needs it.
 * </ol>
 */
final class ErrorMessages {
  private static final String OUR_PACKAGE = "dev.filetables.";

  private ErrorMessages() {}

  static String oneLine(Throwable failure) {
    List<Throwable> chain = new ArrayList<>();
    Map<Throwable, Boolean> seen = new IdentityHashMap<>();
    for (Throwable t = failure; t != null && seen.put(t, true) == null; t = t.getCause()) {
      String known = describeKnown(t);
      if (known != null) {
        return flatten(known);
      }
      chain.add(t);
    }
    for (int i = chain.size() - 1; i >= 0; i--) {
      Throwable t = chain.get(i);
      if (thrownByUs(t) && t.getMessage() != null && !t.getMessage().isBlank()) {
        return flatten(t.getMessage());
      }
    }
    Throwable innermost = chain.get(chain.size() - 1);
    String message = innermost.getMessage();
    String type = innermost.getClass().getSimpleName();
    if (message == null || message.isBlank()) {
      return type;
    }
    boolean selfExplaining =
        innermost instanceof IllegalArgumentException || innermost instanceof IllegalStateException;
    return flatten(selfExplaining ? message : type + ": " + message);
  }

  private static boolean thrownByUs(Throwable t) {
    StackTraceElement[] trace = t.getStackTrace();
    return trace.length > 0 && trace[0].getClassName().startsWith(OUR_PACKAGE);
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
