package dev.filetables.pipelines.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the classpath of a server module: the file its build writes ({@code
 * <module>/target/server.classpath}), or a system property naming that file or holding the
 * classpath itself.
 */
final class ServerClasspath {
  private ServerClasspath() {}

  /**
   * The {@code property}, else {@code file} (relative to the project root) under {@code
   * filetables.home}, the working directory or one of its parents.
   */
  static String find(String property, String file) throws IOException {
    String value = System.getProperty(property);
    if (value != null && !value.isBlank()) {
      Path path = Path.of(value);
      return Files.isRegularFile(path) ? Files.readString(path).strip() : value;
    }
    List<Path> candidates = new ArrayList<>();
    String home = System.getProperty("filetables.home");
    if (home != null) {
      candidates.add(Path.of(home).resolve(file));
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      candidates.add(dir.resolve(file));
    }
    for (Path candidate : candidates) {
      if (Files.isRegularFile(candidate)) {
        String classpath = Files.readString(candidate).strip();
        if (!classpath.isEmpty()) {
          return classpath;
        }
      }
    }
    String module = Path.of(file).getName(0).toString();
    throw new IOException(
        "no classpath for the "
            + module
            + " module: build it first (mvn -pl "
            + module
            + " compile writes "
            + file
            + ") or set -D"
            + property
            + "=<file>; looked at "
            + candidates);
  }
}
