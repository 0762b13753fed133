package dev.filetables.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FileSystemOptionsTest {

  @Test
  void everyDeclaredOptionIsRegistered() throws Exception {
    List<Object> fields = new ArrayList<>();
    for (Field f : FileSystemOptions.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == TableOption.class) {
        fields.add(f.get(null));
      }
    }
    assertEquals(fields.size(), FileSystemOptions.all().size());
    assertTrue(FileSystemOptions.all().containsAll(fields));
  }

  @Test
  void fallbackAndDefaultText() {
    assertEquals(
        FileSystemOptions.ROLLING_ROLLOVER_INTERVAL,
        FileSystemOptions.COMPACTION_MAX_DELAY.fallback().orElseThrow());
    assertEquals("30 min", FileSystemOptions.ROLLING_ROLLOVER_INTERVAL.defaultText());
    assertEquals("128MB", FileSystemOptions.ROLLING_FILE_SIZE.defaultValueText().orElseThrow());
    assertEquals(Duration.ofSeconds(90), FileSystemOptions.COMMIT_DELAY.parse(" 90 s "));
  }

  @Test
  void aDeclarationNeedsAtMostOneDefault() {
    TableOption.Typed<Duration> both =
        TableOption.key("x")
            .type(OptionTypes.DURATION)
            .defaultValue(Duration.ZERO)
            .fallbackTo(FileSystemOptions.COMMIT_DELAY);
    assertThrows(IllegalStateException.class, () -> both.description("x"));
    TableOption.Typed<Duration> zero =
        TableOption.key("y").type(OptionTypes.POSITIVE_DURATION).defaultValue(Duration.ZERO);
    assertThrows(InvalidValueException.class, () -> zero.description("a default must be valid"));
  }
}
