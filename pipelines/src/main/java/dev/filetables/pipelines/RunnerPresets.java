package dev.filetables.pipelines;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.beam.sdk.annotations.Internal;

/**
 * Named runner presets: {@code runner-configs/<name>.args} files holding one pipeline option per
 * line ({@code --runner=FlinkRunner}); blank lines and lines starting with {@code #} are ignored.
 *
 * <p>Presets are looked up in {@code $filetables.home/runner-configs} (the launcher sets that
 * system property to the project directory), then in {@code ./runner-configs}, then inside the
 * pipelines jar (the build copies the project's presets there), so a preset resolves wherever the
 * CLI is started. A value containing a '/' or ending in {@code .args} is read as a file path
 * instead.
 */
@Internal
public final class RunnerPresets {
  static final String DIRECTORY = "runner-configs";
  static final String SUFFIX = ".args";

  private final List<Path> directories;

  RunnerPresets(List<Path> directories) {
    this.directories = List.copyOf(directories);
  }

  /** The standard search path described above. */
  public static RunnerPresets standard() {
    List<Path> dirs = new ArrayList<>();
    String home = System.getProperty("filetables.home");
    if (home != null && !home.isBlank()) {
      dirs.add(Path.of(home).resolve(DIRECTORY));
    }
    dirs.add(Path.of(DIRECTORY));
    return new RunnerPresets(dirs);
  }

  /** The preset's options, or a {@link CliException} naming the presets that exist. */
  public List<String> load(String nameOrPath) {
    if (nameOrPath.contains("/") || nameOrPath.endsWith(SUFFIX)) {
      Path file = Path.of(nameOrPath);
      if (!Files.isRegularFile(file)) {
        throw new CliException("preset file not found: " + file);
      }
      return parse(read(file), file.toString());
    }
    return find(nameOrPath)
        .orElseThrow(
            () ->
                new CliException(
                    "unknown preset '"
                        + nameOrPath
                        + "'; available: "
                        + String.join(", ", available())
                        + " (files "
                        + DIRECTORY
                        + "/<name>"
                        + SUFFIX
                        + ")"));
  }

  /** The preset's options if a preset of that name exists. */
  public Optional<List<String>> find(String name) {
    for (Path dir : directories) {
      Path file = dir.resolve(name + SUFFIX);
      if (Files.isRegularFile(file)) {
        return Optional.of(parse(read(file), file.toString()));
      }
    }
    String resource = DIRECTORY + "/" + name + SUFFIX;
    try (InputStream in = RunnerPresets.class.getClassLoader().getResourceAsStream(resource)) {
      if (in != null) {
        return Optional.of(parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource));
      }
    } catch (IOException e) {
      throw new CliException("cannot read preset " + resource + ": " + e.getMessage(), e);
    }
    return Optional.empty();
  }

  /**
   * Names of the presets found in the preset directories (the built-in ones when none is found).
   */
  public List<String> available() {
    TreeSet<String> names = new TreeSet<>();
    for (Path dir : directories) {
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
        for (Path file : files) {
          String fileName = file.getFileName().toString();
          names.add(fileName.substring(0, fileName.length() - SUFFIX.length()));
        }
      } catch (IOException e) {
        // an unreadable directory just contributes no names to an error message
      }
    }
    if (names.isEmpty()) {
      for (String builtIn : List.of("direct", "flink-cluster", "flink-local")) {
        if (find(builtIn).isPresent()) {
          names.add(builtIn);
        }
      }
    }
    return new ArrayList<>(names);
  }

  /** Parses a preset's text: one {@code --name=value} per line, {@code #} comment lines. */
  static List<String> parse(String text, String source) {
    List<String> args = new ArrayList<>();
    String[] lines = text.split("\\R", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (!line.startsWith("--") || line.length() == 2 || line.contains(" --")) {
        throw new CliException(
            source
                + " line "
                + (i + 1)
                + ": expected one pipeline option such as --runner=FlinkRunner, found '"
                + line
                + "'");
      }
      args.add(line);
    }
    return args;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CliException("cannot read preset " + file + ": " + e.getMessage(), e);
    }
  }
}
