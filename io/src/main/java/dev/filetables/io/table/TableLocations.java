package dev.filetables.io.table;

import dev.filetables.io.files.store.Stores;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The path of a path option ({@code path}, {@code source.bad-records.dead-letter.path}): a plain
 * local path, an absolute {@code file:} URI without a host, {@code s3://bucket/...} or {@code
 * hdfs://host:port/...}. Any other form fails with a message naming the option and saying what is
 * supported.
 */
final class TableLocations {
  private TableLocations() {}

  /** A URI scheme; one letter is taken for a Windows drive ({@code C:\data}), not a scheme. */
  private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]+):");

  /** The path {@code path}, the value of option {@code key}, stands for. */
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
    if (Stores.SCHEMES.contains(name.toLowerCase(Locale.ROOT))) {
      try {
        return Stores.path(path)
            .orElseThrow(() -> new TableDefinitionException(option + " is not a valid location"));
      } catch (IllegalArgumentException e) {
        throw new TableDefinitionException(option + ": " + e.getMessage());
      }
    }
    if (!name.equalsIgnoreCase("file")) {
      throw new TableDefinitionException(
          option
              + " uses the '"
              + name
              + "' file system; FileTables supports local paths (or file:///...), s3://bucket/path"
              + " and hdfs://host:port/path"
              + (name.equalsIgnoreCase("s3a") || name.equalsIgnoreCase("s3n")
                  ? " (write s3:// for S3)"
                  : ""));
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
              + "'; a file: URI is local: use file:///... (three slashes), or hdfs://host:port/... for HDFS");
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
