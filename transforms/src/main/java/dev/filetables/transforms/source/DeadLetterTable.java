package dev.filetables.transforms.source;

import dev.filetables.io.kafka.KafkaTableSpec;
import dev.filetables.io.table.BadRecordPolicy;
import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The dead-letter table of a source table read with {@code source.bad-records} = {@code
 * dead-letter}: a file table of its own at {@code source.bad-records.dead-letter.path}, JSON lines
 * partitioned by the UTC date the bad record was found ({@code dt=yyyy-MM-dd}), one row per bad
 * record or bad file. A read outputs these rows ({@link ReadResult#deadLetters}); the step that
 * wires the read writes them through {@code FileTableIO.write}, so the table has the sink's
 * guarantees (hidden until complete, no duplicates from retried bundles) and can be read back like
 * any table: {@link #ddl} gives its {@code CREATE TABLE} for {@code bin/filetables query}.
 *
 * <p>Columns: {@code source_file}; {@code kind} ({@code record}: one bad record, or {@code file}:
 * the rest of a file or range could not be read); {@code line_number} (1-based, when known) and
 * {@code byte_offset} (of the record, or where a file failed); {@code position} (readable, e.g.
 * {@code row group at byte 4, row 17}); {@code raw_text} (the record as stored, when it decodes in
 * the table's charset) and {@code raw_base64} (the same bytes, always, when the format has raw
 * records: CSV and JSON); {@code error_class}, {@code error_message}; {@code error_time}.
 */
@Internal
public final class DeadLetterTable {
  private DeadLetterTable() {}

  public static final String KIND_RECORD = "record";
  public static final String KIND_FILE = "file";

  /** Columns of the dead-letter table, partition column {@code dt} last. */
  public static final Schema SCHEMA =
      Schema.builder()
          .addStringField("source_file")
          .addStringField("kind")
          .addNullableField("line_number", ColumnType.BIGINT.fieldType())
          .addNullableField("byte_offset", ColumnType.BIGINT.fieldType())
          .addNullableField("position", ColumnType.STRING.fieldType())
          .addNullableField("raw_text", ColumnType.STRING.fieldType())
          .addNullableField("raw_base64", ColumnType.STRING.fieldType())
          .addStringField("error_class")
          .addStringField("error_message")
          .addField("error_time", ColumnType.TIMESTAMP_LTZ.fieldType())
          .addStringField("dt")
          .build();

  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);

  /** The dead-letter table of {@code source}, when its policy is {@code dead-letter}. */
  public static Optional<TableSpec> of(TableSpec source) {
    TableOptions options = source.options();
    if (options.badRecordPolicy() != BadRecordPolicy.DEAD_LETTER) {
      return Optional.empty();
    }
    return Optional.of(forSource(source.name(), options.deadLetterPath().orElseThrow()));
  }

  /**
   * The dead-letter table of the Kafka table {@code source}, when its policy is {@code
   * dead-letter}.
   */
  public static Optional<TableSpec> of(KafkaTableSpec source) {
    if (source.badRecordPolicy() != BadRecordPolicy.DEAD_LETTER) {
      return Optional.empty();
    }
    return Optional.of(forSource(source.name(), source.deadLetterPath().orElseThrow()));
  }

  /**
   * The dead-letter table at {@code root} of the source table named {@code sourceName} (a file
   * table, or a Kafka table: {@code source_file} is then {@code kafka://<topic>/<partition>}).
   */
  public static TableSpec forSource(String sourceName, Path root) {
    return TableSpec.builder()
        .setName(sourceName + "_dead_letters")
        .setSchema(SCHEMA)
        .setPartitionKeys(List.of("dt"))
        .setOptions(
            TableOptions.builder()
                .connector("filesystem")
                .path(root.toAbsolutePath().normalize())
                .format("json")
                // on an unbounded read, make dead letters visible within about a minute
                .set(TableOptions.ROLLING_ROLLOVER_INTERVAL, "1 min")
                .set(TableOptions.ROLLING_INACTIVITY_INTERVAL, "1 min")
                .set(TableOptions.ROLLING_CHECK_INTERVAL, "10 s")
                .build())
        .build();
  }

  /**
   * {@code CREATE TABLE} of the dead-letter table of {@code source}, for {@code bin/filetables
   * query}.
   */
  public static String ddl(TableSpec source) {
    TableSpec table =
        of(source)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "Table `"
                            + source.name()
                            + "` has no dead-letter table ('source.bad-records' is '"
                            + source.options().badRecordPolicy().optionValue()
                            + "')"));
    return ddlOf(table);
  }

  /** {@code CREATE TABLE} of a dead-letter table (from {@link #forSource}). */
  public static String ddlOf(TableSpec table) {
    return "CREATE TABLE "
        + table.name()
        + " (\n"
        + "  source_file   STRING NOT NULL,\n"
        + "  kind          STRING NOT NULL,   -- 'record' or 'file'\n"
        + "  line_number   BIGINT,\n"
        + "  byte_offset   BIGINT,\n"
        + "  `position`    STRING,\n"
        + "  raw_text      STRING,\n"
        + "  raw_base64    STRING,\n"
        + "  error_class   STRING NOT NULL,\n"
        + "  error_message STRING NOT NULL,\n"
        + "  error_time    TIMESTAMP_LTZ(3) NOT NULL,\n"
        + "  dt            STRING NOT NULL\n"
        + ") PARTITIONED BY (dt) WITH (\n"
        + "  'connector' = 'filesystem',\n"
        + "  'path' = '"
        + table.options().path().replace("'", "''")
        + "',\n"
        + "  'format' = 'json'\n"
        + ");\n";
  }

  /** One dead-letter row ({@code lineNumber}, {@code byteOffset}: negative when unknown). */
  public static Row row(
      String sourceFile,
      String kind,
      long lineNumber,
      long byteOffset,
      @Nullable String position,
      byte @Nullable [] raw,
      @Nullable String rawText,
      String errorClass,
      String errorMessage,
      Instant time) {
    return Row.withSchema(SCHEMA)
        .withFieldValue("source_file", sourceFile)
        .withFieldValue("kind", kind)
        .withFieldValue("line_number", lineNumber >= 0 ? lineNumber : null)
        .withFieldValue("byte_offset", byteOffset >= 0 ? byteOffset : null)
        .withFieldValue("position", position)
        .withFieldValue("raw_text", rawText)
        .withFieldValue("raw_base64", raw == null ? null : Base64.getEncoder().encodeToString(raw))
        .withFieldValue("error_class", errorClass)
        .withFieldValue("error_message", errorMessage)
        .withFieldValue("error_time", new org.joda.time.Instant(time.toEpochMilli()))
        .withFieldValue("dt", DAY.format(time))
        .build();
  }
}
