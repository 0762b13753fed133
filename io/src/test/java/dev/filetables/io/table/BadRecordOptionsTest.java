package dev.filetables.io.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code source.bad-records}, its dead-letter path, and the formats' {@code charset}. */
class BadRecordOptionsTest {
  @TempDir Path tmp;

  private Map<String, String> base(String format, String... keyValues) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("connector", "filesystem");
    m.put("path", tmp.resolve("t").toString());
    m.put("format", format);
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put(keyValues[i], keyValues[i + 1]);
    }
    return m;
  }

  private TableOptions of(String format, String... keyValues) {
    return TableOptions.of(base(format, keyValues));
  }

  private String error(String format, String... keyValues) {
    return assertThrows(TableDefinitionException.class, () -> of(format, keyValues)).getMessage();
  }

  private static void assertContains(String message, String... parts) {
    for (String part : parts) {
      assertTrue(message.contains(part), "expected <" + part + "> in: " + message);
    }
  }

  @Test
  void defaultIsFailAndValuesParse() {
    assertEquals(BadRecordPolicy.FAIL, of("csv").badRecordPolicy());
    assertEquals(BadRecordPolicy.SKIP, of("csv", "source.bad-records", " Skip ").badRecordPolicy());
    assertEquals(BadRecordPolicy.FAIL, of("json", "source.bad-records", "fail").badRecordPolicy());
    String dl = tmp.resolve("dead").toString();
    TableOptions o =
        of(
            "parquet",
            "source.bad-records",
            "dead-letter",
            "source.bad-records.dead-letter.path",
            dl);
    assertEquals(BadRecordPolicy.DEAD_LETTER, o.badRecordPolicy());
    assertEquals(Optional.of(Path.of(dl)), o.deadLetterPath());
    assertEquals(Optional.empty(), of("csv").deadLetterPath());
  }

  @Test
  void flinksIgnoreParseErrorsMeansSkip() {
    assertEquals(
        BadRecordPolicy.SKIP, of("csv", "csv.ignore-parse-errors", "true").badRecordPolicy());
    assertEquals(
        BadRecordPolicy.SKIP, of("json", "json.ignore-parse-errors", "TRUE").badRecordPolicy());
    assertEquals(
        BadRecordPolicy.FAIL, of("json", "json.ignore-parse-errors", "false").badRecordPolicy());
    assertEquals(
        BadRecordPolicy.SKIP,
        of("csv", "csv.ignore-parse-errors", "true", "source.bad-records", "skip")
            .badRecordPolicy());
    assertContains(
        error("csv", "csv.ignore-parse-errors", "true", "source.bad-records", "fail"),
        "'source.bad-records' = 'fail' contradicts 'csv.ignore-parse-errors' = 'true'");
  }

  @Test
  void badValuesAndMissingPathAreExplained() {
    assertEquals(
        "Invalid value 'drop' for option 'source.bad-records': expected one of fail, skip, dead-letter",
        error("csv", "source.bad-records", "drop"));
    assertContains(
        error("csv", "source.bad-records", "dead-letter"),
        "'source.bad-records' = 'dead-letter' requires option 'source.bad-records.dead-letter.path'");
    assertContains(
        error("csv", "source.bad-records.dead-letter.path", tmp.resolve("d").toString()),
        "'source.bad-records.dead-letter.path' is set but 'source.bad-records' is unset (fail)");
    assertContains(
        error(
            "csv",
            "source.bad-records",
            "skip",
            "source.bad-records.dead-letter.path",
            tmp.resolve("d").toString()),
        "but 'source.bad-records' is 'skip'");
  }

  @Test
  void deadLetterPathMustNotOverlapTheTable() throws Exception {
    assertContains(
        error(
            "csv",
            "source.bad-records",
            "dead-letter",
            "source.bad-records.dead-letter.path",
            tmp.resolve("t").resolve("bad").toString()),
        "overlaps the table's path");
    assertContains(
        error(
            "csv",
            "source.bad-records",
            "dead-letter",
            "source.bad-records.dead-letter.path",
            tmp.toString()),
        "overlaps the table's path");
    Path file = Files.writeString(tmp.resolve("file.txt"), "x");
    assertContains(
        error(
            "csv",
            "source.bad-records",
            "dead-letter",
            "source.bad-records.dead-letter.path",
            file.toString()),
        "is a file");
    assertContains(
        error(
            "csv",
            "source.bad-records",
            "dead-letter",
            "source.bad-records.dead-letter.path",
            "gs://b/x"),
        "'source.bad-records.dead-letter.path'",
        "'gs' file system");
  }

  @Test
  void charsetsMustBeKnownAndAsciiCompatible() {
    assertEquals(
        "GBK", of("csv", "csv.charset", "gbk").formatOptions().get("charset").toUpperCase());
    of("json", "json.charset", "ISO-8859-1");
    assertContains(
        error("csv", "csv.charset", "UTF-16"),
        "Invalid value 'UTF-16' for option 'csv.charset'",
        "ASCII-compatible",
        "convert them to UTF-8");
    assertContains(error("json", "json.charset", "UTF-32LE"), "'json.charset'", "ASCII-compatible");
    assertContains(error("csv", "csv.charset", "no-such-charset"), "'csv.charset'", "charset name");
    assertContains(error("avro", "avro.charset", "GBK"), "Unknown option 'avro.charset'");
  }

  @Test
  void csvStructuralBytesMustNotBeTrailBytesOfTheCharset() {
    // '|' (0x7C) and '\' (0x5C) occur inside GBK double-byte characters
    assertContains(
        error("csv", "csv.charset", "GBK", "csv.field-delimiter", "|"),
        "'csv.field-delimiter' uses '|' (0x7C)",
        "'csv.charset' = 'GBK'");
    assertContains(
        error("csv", "csv.charset", "GBK", "csv.escape-character", "\\\\"),
        "'csv.escape-character'");
    of("csv", "csv.charset", "GBK", "csv.field-delimiter", ";");
    of("csv", "csv.charset", "UTF-8", "csv.field-delimiter", "|");
  }
}
