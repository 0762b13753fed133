package dev.filetables.io.table;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local path of a path option ({@code path}, {@code source.bad-records.dead-letter.path}): a
 * plain path or an absolute {@code file:} URI without a host. Any other form fails with a message
 * naming the option and saying what is supported.
 */
final class LocalPaths {
  private LocalPaths() {}

  /** A URI scheme; one letter is taken for a Windows drive ({@code C:\data}), not a scheme. */
  private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]+):");

  /** The local path {@code path}, the value of option {@code key}, stands for. */
  static Path of(String key, String path) {
    String option = "Option '" + key + "' = '" + path + "'";
    Matcher scheme = SCHEME.matcher(path);
    if (!scheme.find()) {
      try {
        return Path.of(path);
      } catch (InvalidPathException e) {
        throw new TableDefinitionException(option + " is not a valid local path: " + e.getReason());
      }
    }
    String name = scheme.group(1);
    if (!name.equalsIgnoreCase("file")) {
      throw new TableDefinitionException(
          option
              + " uses the '"
              + name
              + "' file system; FileTables supports only the local file system for now: use a plain"
              + " path or a file: URI such as file:///data/orders");
    }
    URI uri;
    try {
      uri = new URI(path);
    } catch (URISyntaxException e) {
      throw new TableDefinitionException(
          option
              + " is not a valid file: URI ("
              + e.getReason()
              + "); percent-encode special characters such as spaces (%20) or use a plain path");
    }
    if (uri.isOpaque() || uri.getPath() == null || !uri.getPath().startsWith("/")) {
      throw new TableDefinitionException(
          option
              + " is a relative file: URI; a file: URI must be absolute, e.g. file:///data/orders"
              + " (or use a plain relative path)");
    }
    if (uri.getAuthority() != null && !uri.getAuthority().isEmpty()) {
      throw new TableDefinitionException(
          option
              + " names host '"
              + uri.getAuthority()
              + "'; FileTables supports only the local file system: use file:///... (three slashes)");
    }
    if (uri.getQuery() != null || uri.getFragment() != null) {
      throw new TableDefinitionException(
          option + " has a query or fragment ('?' or '#'); percent-encode them");
    }
    try {
      return Path.of(new URI("file", null, uri.getPath(), null));
    } catch (URISyntaxException | IllegalArgumentException e) {
      throw new TableDefinitionException(option + " is not a usable file: URI: " + e.getMessage());
    }
  }
}
