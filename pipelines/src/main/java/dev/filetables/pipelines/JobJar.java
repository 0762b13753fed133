package dev.filetables.pipelines;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the job jar ({@code filetables-pipelines-bundled-<version>.jar}, built by {@code mvn
 * package} of the pipelines module) that a pipeline submitted to a remote Flink cluster ships to
 * it.
 *
 * <p>Without {@code --filesToStage}, Beam would stage every jar of the client's class path, Flink's
 * own included: hundreds of megabytes per submission, and classes the cluster already has. The job
 * jar holds exactly what the job needs.
 */
final class JobJar {
  static final String PREFIX = "filetables-pipelines-bundled-";

  private JobJar() {}

  /**
   * The job jar: the jar this class was loaded from if it is the job jar (a client started from it,
   * or {@code flink run}), else the newest one in {@code $filetables.home/pipelines/target} or
   * {@code ./pipelines/target}.
   */
  static Optional<Path> find() {
    Optional<Path> self = loadedFrom();
    if (self.isPresent() && isJobJar(self.get())) {
      return self;
    }
    List<Path> dirs = new ArrayList<>();
    String home = System.getProperty("filetables.home");
    if (home != null && !home.isBlank()) {
      dirs.add(Path.of(home, "pipelines", "target"));
    }
    dirs.add(Path.of("pipelines", "target"));
    for (Path dir : dirs) {
      Optional<Path> jar = newestIn(dir);
      if (jar.isPresent()) {
        return jar;
      }
    }
    return Optional.empty();
  }

  /** The job jar, or a {@link CliException} that says how to build it. */
  static Path require() {
    return find()
        .orElseThrow(
            () ->
                new CliException(
                    "a remote Flink cluster needs the job jar "
                        + PREFIX
                        + "<version>.jar, which is not built: run `mvn -B -pl pipelines -am package"
                        + " -DskipTests` (or pass --filesToStage=<jar>)"));
  }

  static boolean isJobJar(Path file) {
    String name = file.getFileName().toString();
    return name.startsWith(PREFIX) && name.endsWith(".jar") && Files.isRegularFile(file);
  }

  private static Optional<Path> newestIn(Path dir) {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    Path newest = null;
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(dir, PREFIX + "*.jar")) {
      for (Path jar : jars) {
        if (newest == null
            || Files.getLastModifiedTime(jar).compareTo(Files.getLastModifiedTime(newest)) > 0) {
          newest = jar;
        }
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.ofNullable(newest).map(p -> p.toAbsolutePath().normalize());
  }

  private static Optional<Path> loadedFrom() {
    try {
      CodeSource source = JobJar.class.getProtectionDomain().getCodeSource();
      if (source == null || source.getLocation() == null) {
        return Optional.empty();
      }
      return Optional.of(Path.of(source.getLocation().toURI()));
    } catch (URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
