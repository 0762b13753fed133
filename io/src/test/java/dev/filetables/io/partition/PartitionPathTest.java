package dev.filetables.io.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PartitionPathTest {
  private static final String DEFAULT = "__DEFAULT_PARTITION__";

  @Test
  void escapesExactlyTheHiveCharacters() {
    String escaped = "\"#%'*/:=?\\{}[]^\u007F";
    for (char c = 0; c < 0x20; c++) {
      assertEquals(
          String.format("%%%02X", (int) c),
          PartitionPath.escape(String.valueOf(c)),
          "char " + (int) c);
    }
    for (char c : escaped.toCharArray()) {
      assertEquals(
          String.format("%%%02X", (int) c), PartitionPath.escape(String.valueOf(c)), "char " + c);
    }
    // Everything else in ASCII and beyond stays as is.
    for (char c = 0x20; c < 0x300; c++) {
      if (escaped.indexOf(c) < 0) {
        assertEquals(String.valueOf(c), PartitionPath.escape(String.valueOf(c)), "char " + (int) c);
      }
    }
  }

  @Test
  void escapeTable() {
    assertEquals(
        "%22%23%25%27%2A%2F%3A%3D%3F%5C%7B%7D%5B%5D%5E%7F",
        PartitionPath.escape("\"#%'*/:=?\\{}[]^\u007F"));
    assertEquals("%00%01%09%0A%0D%1F", PartitionPath.escape("\u0000\u0001\t\n\r\u001F"));
    assertEquals(
        "a b+c,d;e&f~g|h<i>j!k@l$m(n)o", PartitionPath.escape("a b+c,d;e&f~g|h<i>j!k@l$m(n)o"));
    assertEquals("2020-05-20 12%3A00%3A00", PartitionPath.escape("2020-05-20 12:00:00"));
    assertEquals("Zürich/東京", PartitionPath.unescape(PartitionPath.escape("Zürich/東京")));
    assertEquals("Zürich%2F東京", PartitionPath.escape("Zürich/東京"));
  }

  @Test
  void escapeWithNothingToEscapeReturnsTheSameInstance() {
    String value = new String("2020-05-20");
    assertSame(value, PartitionPath.escape(value));
    String plain = new String("no-percent");
    assertSame(plain, PartitionPath.unescape(plain));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "a",
        "a/b",
        "100%",
        "%41",
        "x=y",
        "\u0000\u007F",
        "Zürich 東京 😀",
        "'quoted'",
        "C:\\dir",
        "%%%",
        "a%2Fb"
      })
  void roundTrips(String value) {
    assertEquals(value, PartitionPath.unescape(PartitionPath.escape(value)));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "%|%",
        "%4|%4",
        "%zz|%zz",
        "%41|A",
        "%4a|J",
        "%4A|J",
        "a%|a%",
        "%%41|%A",
        "%g1|%g1",
        "%2f%2F|//",
        "%4%41|%4A"
      })
  void unescapeEdgeCases(String text, String expected) {
    assertEquals(expected, PartitionPath.unescape(text));
  }

  @Test
  void percentEncodedUtf8DecodesAsUtf8() {
    // DuckDB and URL encoders percent-encode UTF-8 bytes; Hive never escapes non-ASCII.
    assertEquals("zürich €", PartitionPath.unescape("z%C3%BCrich%20%E2%82%AC"));
    assertEquals("\uD83D\uDE00", PartitionPath.unescape("%F0%9F%98%80"));
    // Not valid UTF-8: one char per escape, as Hive reads it.
    assertEquals("\u00C3", PartitionPath.unescape("%C3"));
    assertEquals("\u00FFA", PartitionPath.unescape("%FF%41"));
  }

  @Test
  void nullAndEmptyGoToTheDefaultPartition() {
    assertEquals(
        "dt=" + DEFAULT,
        PartitionPath.toRelativePath(List.of("dt"), Arrays.asList((String) null), DEFAULT));
    assertEquals(
        "dt=" + DEFAULT, PartitionPath.toRelativePath(List.of("dt"), List.of(""), DEFAULT));
    assertNull(PartitionPath.parse("dt=" + DEFAULT, DEFAULT).get("dt"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "null|%6Eull",
        "NULL|%4EULL",
        "Null|%4Eull",
        "__DEFAULT_PARTITION__|%5F_DEFAULT_PARTITION__",
        "__default_partition__|%5F_default_partition__",
        "__HIVE_DEFAULT_PARTITION__|%5F_HIVE_DEFAULT_PARTITION__",
        "nullx|nullx",
        "_null|_null"
      })
  void literalsThatLookLikeNullOrDefaultAreProtected(String value, String written) {
    String path = PartitionPath.toRelativePath(List.of("k"), List.of(value), DEFAULT);
    assertEquals("k=" + written, path);
    assertEquals(value, PartitionPath.parse(path, DEFAULT).get("k"));
    assertEquals(value, PartitionPath.parse(path, List.of("k"), DEFAULT).get("k"));
  }

  @Test
  void customDefaultName() {
    String dflt = "none";
    assertEquals(
        "k=none", PartitionPath.toRelativePath(List.of("k"), Arrays.asList((String) null), dflt));
    assertEquals("k=%4Eone", PartitionPath.toRelativePath(List.of("k"), List.of("None"), dflt));
    // Hive's name stays protected (other engines read it as null); Flink's default name is then
    // plain.
    assertEquals(
        "k=%5F_HIVE_DEFAULT_PARTITION__",
        PartitionPath.toRelativePath(List.of("k"), List.of("__HIVE_DEFAULT_PARTITION__"), dflt));
    assertEquals(
        "k=" + DEFAULT, PartitionPath.toRelativePath(List.of("k"), List.of(DEFAULT), dflt));
    assertEquals(DEFAULT, PartitionPath.parse("k=" + DEFAULT, dflt).get("k"));
    assertEquals("k=%6Eull", PartitionPath.toRelativePath(List.of("k"), List.of("null"), dflt));
    assertNull(PartitionPath.parse("k=none", dflt).get("k"));
    assertEquals("None", PartitionPath.parse("k=%4Eone", dflt).get("k"));
    // A directory written by another engine with a literal 'null' reads as the string.
    assertEquals("null", PartitionPath.parse("k=null", dflt).get("k"));
    assertThrows(IllegalArgumentException.class, () -> PartitionPath.checkDefaultName(""));
    assertThrows(IllegalArgumentException.class, () -> PartitionPath.checkDefaultName("東京"));
  }

  @Test
  void buildsAndParsesMultiLevelPaths() {
    List<String> keys = List.of("dt", "hour", "key/with=odd");
    List<String> values = Arrays.asList("2020-05-20", null, "a/b c");
    String path = PartitionPath.toRelativePath(keys, values, DEFAULT);
    assertEquals("dt=2020-05-20/hour=__DEFAULT_PARTITION__/key%2Fwith%3Dodd=a%2Fb c", path);
    LinkedHashMap<String, String> parsed = PartitionPath.parse(path, DEFAULT);
    assertEquals(List.of("dt", "hour", "key/with=odd"), List.copyOf(parsed.keySet()));
    assertEquals(values, new java.util.ArrayList<>(parsed.values()));
    assertEquals(parsed, PartitionPath.parse(path, keys, DEFAULT));
    assertEquals(parsed, PartitionPath.parse("/" + path + "/", keys, DEFAULT));
    assertEquals(Map.of(), PartitionPath.parse("", DEFAULT));
    assertEquals("", PartitionPath.toRelativePath(List.of(), List.of(), DEFAULT));
  }

  @Test
  void parseWithKeysRejectsMismatches() {
    IllegalArgumentException wrongKey =
        assertThrows(
            IllegalArgumentException.class,
            () -> PartitionPath.parse("hour=1/dt=2", List.of("dt", "hour"), DEFAULT));
    assertTrue(wrongKey.getMessage().contains("'hour=1' at level 1"), wrongKey.getMessage());
    assertTrue(wrongKey.getMessage().contains("dt=.../hour=..."), wrongKey.getMessage());
    IllegalArgumentException tooFew =
        assertThrows(
            IllegalArgumentException.class,
            () -> PartitionPath.parse("dt=1", List.of("dt", "hour"), DEFAULT));
    assertTrue(tooFew.getMessage().contains("has 1 levels, expected 2"), tooFew.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> PartitionPath.parse("dtx=1", List.of("dt"), DEFAULT));
    assertThrows(IllegalArgumentException.class, () -> PartitionPath.parse("novalue", DEFAULT));
    assertThrows(IllegalArgumentException.class, () -> PartitionPath.parse("a=1/a=2", DEFAULT));
    assertThrows(
        IllegalArgumentException.class,
        () -> PartitionPath.toRelativePath(List.of("a", "b"), List.of("1"), DEFAULT));
  }

  @Test
  void segments() {
    assertTrue(PartitionPath.isSegmentFor("dt=1", "dt"));
    assertTrue(PartitionPath.isSegmentFor("dt=", "dt"));
    assertFalse(PartitionPath.isSegmentFor("dt", "dt"));
    assertFalse(PartitionPath.isSegmentFor("dtx=1", "dt"));
    assertFalse(PartitionPath.isSegmentFor("d=1", "dt"));
    assertTrue(PartitionPath.isSegmentFor("a%3Db=1", "a=b"));
    assertEquals("x=y", PartitionPath.segmentValue("k=x%3Dy", "k", DEFAULT));
    assertNull(PartitionPath.segmentValue("k=" + DEFAULT, "k", DEFAULT));
    assertEquals("k=%6Eull", PartitionPath.toSegment("k", "null", DEFAULT));
  }
}
