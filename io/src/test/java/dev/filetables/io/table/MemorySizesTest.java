package dev.filetables.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MemorySizesTest {

  private static final long KB = 1024L;
  private static final long MB = KB * 1024;
  private static final long GB = MB * 1024;
  private static final long TB = GB * 1024;

  @ParameterizedTest
  @CsvSource({
    "128MB, 134217728",
    "128 mb, 134217728",
    "1 kb, 1024",
    "1gb, 1073741824",
    "64m, 67108864",
    "1k, 1024",
    "12345, 12345",
    "0, 0",
    "7b, 7",
    "7 bytes, 7",
    "3 kibibytes, 3072",
    "2 mebibytes, 2097152",
    "1 g, 1073741824",
    "1 gibibytes, 1073741824",
    "1t, 1099511627776",
    "1 TB, 1099511627776",
    "1 tebibytes, 1099511627776",
    "'  5 KB  ', 5120",
  })
  void parsesFlinkForms(String text, long expected) {
    assertEquals(expected, MemorySizes.parse(text));
  }

  @Test
  void parsesUpToLongMax() {
    assertEquals(Long.MAX_VALUE, MemorySizes.parse(Long.toString(Long.MAX_VALUE)));
    assertEquals(8_388_607 * TB, MemorySizes.parse("8388607 tb"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "mb", "1.5mb", "12 parsecs", "1 kbytes", "1 mib", "0x10"})
  void rejectsBadTextNamingItAndTheForms(String text) {
    TableDefinitionException e =
        assertThrows(TableDefinitionException.class, () -> MemorySizes.parse(text));
    assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
    assertTrue(e.getMessage().contains("'128MB'"), e.getMessage());
    assertTrue(e.getMessage().contains("k|kb|kibibytes"), e.getMessage());
  }

  @Test
  void rejectsNegativeAndOverflow() {
    TableDefinitionException negative =
        assertThrows(TableDefinitionException.class, () -> MemorySizes.parse("-1 mb"));
    assertTrue(negative.getMessage().contains("negative"), negative.getMessage());
    TableDefinitionException overflow =
        assertThrows(TableDefinitionException.class, () -> MemorySizes.parse("8388608 tb"));
    assertTrue(overflow.getMessage().contains("larger than"), overflow.getMessage());
    assertThrows(TableDefinitionException.class, () -> MemorySizes.parse("9223372036854775808"));
    assertThrows(TableDefinitionException.class, () -> MemorySizes.parse(null));
  }

  @Test
  void formatsInLargestExactUnit() {
    assertEquals("128mb", MemorySizes.format(128 * MB));
    assertEquals("1kb", MemorySizes.format(KB));
    assertEquals("1500b", MemorySizes.format(1500));
    assertEquals("0b", MemorySizes.format(0));
    assertEquals("3gb", MemorySizes.format(3 * GB));
    assertEquals("2tb", MemorySizes.format(2 * TB));
    assertEquals("1025kb", MemorySizes.format(1025 * KB));
  }

  @Test
  void formatRoundTrips() {
    for (long bytes : new long[] {1, 1023, 1024, 128 * MB + 1, 5 * TB, Long.MAX_VALUE}) {
      assertEquals(bytes, MemorySizes.parse(MemorySizes.format(bytes)));
    }
    assertThrows(IllegalArgumentException.class, () -> MemorySizes.format(-1));
  }
}
