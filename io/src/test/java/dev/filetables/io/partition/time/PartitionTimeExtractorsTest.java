package dev.filetables.io.partition.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.TableDefinitionException;
import dev.filetables.io.table.TableOptions;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionTimeExtractorsTest {
  @TempDir Path dir;

  /** A custom extractor: partition values are epoch days. */
  public static final class EpochDayExtractor implements PartitionTimeExtractor {
    @Override
    public LocalDateTime extract(List<String> partitionKeys, List<String> partitionValues) {
      return java.time.LocalDate.ofEpochDay(Long.parseLong(partitionValues.get(0))).atStartOfDay();
    }
  }

  /** Not an extractor. */
  public static final class NotAnExtractor {}

  @Test
  void defaultKindUsesPatternAndFormatter() {
    PartitionTimeExtractor extractor =
        PartitionTimeExtractors.fromOptions(
            options(
                TableOptions.TIME_EXTRACTOR_PATTERN,
                "$dt",
                TableOptions.TIME_EXTRACTOR_FORMATTER,
                "yyyyMMdd"));
    assertInstanceOf(DefaultPartitionTimeExtractor.class, extractor);
    assertEquals(
        LocalDateTime.of(2020, 5, 20, 0, 0), extractor.extract(List.of("dt"), List.of("20200520")));
  }

  @Test
  void customKindLoadsTheClass() {
    PartitionTimeExtractor extractor =
        PartitionTimeExtractors.fromOptions(
            options(
                TableOptions.TIME_EXTRACTOR_KIND,
                "custom",
                TableOptions.TIME_EXTRACTOR_CLASS,
                EpochDayExtractor.class.getName()));
    assertEquals(LocalDateTime.of(1970, 1, 2, 0, 0), extractor.extract(List.of("d"), List.of("1")));
  }

  @Test
  void unusableClassesFailClearly() {
    TableDefinitionException missing =
        assertThrows(
            TableDefinitionException.class,
            () ->
                PartitionTimeExtractors.fromOptions(
                    options(
                        TableOptions.TIME_EXTRACTOR_KIND,
                        "custom",
                        TableOptions.TIME_EXTRACTOR_CLASS,
                        "com.example.Nope")));
    assertTrue(missing.getMessage().contains("'com.example.Nope'"), missing.getMessage());
    assertTrue(missing.getMessage().contains("cannot be loaded"), missing.getMessage());
    assertTrue(
        missing.getMessage().contains(TableOptions.TIME_EXTRACTOR_CLASS), missing.getMessage());

    TableDefinitionException wrongType =
        assertThrows(
            TableDefinitionException.class,
            () ->
                PartitionTimeExtractors.fromOptions(
                    options(
                        TableOptions.TIME_EXTRACTOR_KIND,
                        "custom",
                        TableOptions.TIME_EXTRACTOR_CLASS,
                        NotAnExtractor.class.getName())));
    assertTrue(wrongType.getMessage().contains("does not implement"), wrongType.getMessage());
  }

  private TableOptions options(String... keyValues) {
    TableOptions.Builder builder = TableOptions.builder().path(dir).format("csv");
    for (int i = 0; i < keyValues.length; i += 2) {
      builder.set(keyValues[i], keyValues[i + 1]);
    }
    return builder.build();
  }
}
