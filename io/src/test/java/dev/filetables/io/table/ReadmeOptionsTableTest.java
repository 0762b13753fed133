package dev.filetables.io.table;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Keeps the README's options table true: it must be exactly the table the option registry prints.
 */
class ReadmeOptionsTableTest {

  @Test
  void readmeShowsTheRegistryTable() throws Exception {
    // Surefire runs in the module directory; the README is at the project root.
    String readme = Files.readString(Path.of("..", "README.md"));
    String table = OptionsTable.markdown().strip();
    assertTrue(
        readme.contains(table),
        "README.md's options table is out of date; replace it with:\n" + table);
  }
}
