package dev.filetables.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The formats reach table options through the service file, not through an import. */
class FormatCatalogTest {

  @Test
  void theFormatsAreFoundOnTheClassPath() {
    assertEquals(
        List.of("csv", "json", "avro", "parquet", "orc"), FormatCatalog.installed().names());
  }

  @Test
  void theTablePackageDoesNotDependOnTheFormatPackage() throws Exception {
    // Surefire runs in the module directory. Fully qualified names count too, not only imports:
    // the format package depends on this one, so any mention the other way is a cycle.
    Path tablePackage = Path.of("src/main/java/dev/filetables/io/table");
    List<String> offenders;
    try (Stream<Path> files = Files.list(tablePackage)) {
      offenders =
          files
              .filter(f -> readString(f).contains("dev.filetables.io.format"))
              .map(f -> f.getFileName().toString())
              .collect(Collectors.toList());
    }
    assertTrue(offenders.isEmpty(), "table classes that name the format package: " + offenders);
  }

  private static String readString(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
