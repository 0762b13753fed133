package dev.filetables.io.partition.time;

import dev.filetables.io.partition.PartitionValues;
import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableDefinitionException;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Derives partition values from an event-time column ({@code sink.partition-derive.time-column})
 * with the time extractor's own {@code timestamp-pattern} and {@code timestamp-formatter}: the
 * inverse of {@link DefaultPartitionTimeExtractor}. Because the same two settings write the
 * partition and read its time back, a row can never land in a partition whose commit time disagrees
 * with the row's time (the classic mistake is a {@code DATE_FORMAT} in another zone or format than
 * the extractor's).
 *
 * <p>How: the event time (a TIMESTAMP as is; a TIMESTAMP_LTZ in {@code watermark-time-zone}) is
 * formatted with the formatter, and the text is cut into the values of the keys the pattern names
 * ({@link TimestampPattern#split}); literal digits of the pattern stand for the truncated fields.
 * With {@code $dt $hour:00:00} and no formatter, {@code 2020-05-20 12:34:56} gives {@code
 * dt=2020-05-20}, {@code hour=12}. Without a formatter the text is {@code yyyy-MM-dd} when the
 * pattern fits a bare date (e.g. no pattern: {@code dt} is the date), else {@code yyyy-MM-dd
 * HH:mm:ss}. Keys the pattern does not name keep the row's own values.
 *
 * <p>Construction checks the settings on sample times (one-digit fields included): every derived
 * value, written as its column type writes it, must read back through the extractor to a time at or
 * before the sample whose own derivation is the same values; otherwise it fails with a message that
 * says what to change (e.g. an INT {@code hour} written as {@code 5} that formatter {@code HH}
 * cannot read). A null event time derives null values (the default partition).
 */
@Internal
public final class PartitionDeriver implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Times the settings are checked on: one- and two-digit fields, end of year, millis. */
  static final List<LocalDateTime> SAMPLES =
      List.of(
          LocalDateTime.of(2021, 3, 4, 5, 6, 7, 89_000_000),
          LocalDateTime.of(1999, 12, 31, 23, 59, 59, 999_000_000),
          LocalDateTime.of(2020, 10, 20, 10, 10, 10),
          LocalDateTime.of(2024, 2, 29, 0, 0, 0));

  private static final String DATE_FORM = "uuuu-MM-dd";
  private static final String DATE_TIME_FORM = "uuuu-MM-dd HH:mm:ss";

  private final List<String> partitionKeys;
  private final @Nullable String pattern;
  private final @Nullable String formatterPattern;

  /** The java.time pattern the event time is formatted with before it is cut into values. */
  private final String formatPattern;

  private final @Nullable String timeColumn;
  private final @Nullable ZoneId zone;

  /** Derived key → its column type, for {@link #apply}; empty when built without a schema. */
  private final LinkedHashMap<String, FieldType> keyTypes;

  private transient @Nullable TimestampPattern resolved;
  private transient @Nullable DateTimeFormatter formatter;
  private transient @Nullable Map<String, String> lastTexts;
  private transient @Nullable Map<String, Object> lastTyped;

  private PartitionDeriver(
      List<String> partitionKeys,
      @Nullable String pattern,
      @Nullable String formatterPattern,
      String formatPattern,
      @Nullable String timeColumn,
      @Nullable ZoneId zone,
      LinkedHashMap<String, FieldType> keyTypes) {
    this.partitionKeys = List.copyOf(partitionKeys);
    this.pattern = pattern;
    this.formatterPattern = formatterPattern;
    this.formatPattern = formatPattern;
    this.timeColumn = timeColumn;
    this.zone = zone;
    this.keyTypes = keyTypes;
  }

  /**
   * The deriver of a table, if it sets {@code sink.partition-derive.time-column}; checks the column
   * (a TIMESTAMP or TIMESTAMP_LTZ column that is not a partition key) and the settings, failing
   * with a {@link TableDefinitionException}.
   */
  public static Optional<PartitionDeriver> forTable(TableSpec table) {
    TableOptions options = table.options();
    Optional<String> column = options.partitionDeriveTimeColumn();
    if (column.isEmpty()) {
      return Optional.empty();
    }
    String name = column.get().trim();
    String key = TableOptions.PARTITION_DERIVE_TIME_COLUMN;
    Schema schema = table.schema();
    if (table.partitionKeys().isEmpty()) {
      throw new TableDefinitionException(
          "Option '"
              + key
              + "' = '"
              + name
              + "' needs a partitioned table; table `"
              + table.name()
              + "` has no PARTITIONED BY");
    }
    if (!schema.hasField(name)) {
      throw new TableDefinitionException(
          "Option '"
              + key
              + "' = '"
              + name
              + "' is not a column of table `"
              + table.name()
              + "`; columns are "
              + schema.getFieldNames());
    }
    if (table.partitionKeys().contains(name) || table.metadataColumnNames().contains(name)) {
      throw new TableDefinitionException(
          "Option '"
              + key
              + "' = '"
              + name
              + "' names a partition or metadata column; name the"
              + " data column that holds the event time");
    }
    ColumnType type = ColumnType.of(schema.getField(name).getType());
    if (type != ColumnType.TIMESTAMP && type != ColumnType.TIMESTAMP_LTZ) {
      throw new TableDefinitionException(
          "Option '"
              + key
              + "' = '"
              + name
              + "' is a "
              + type
              + " column; partition values are"
              + " derived from a TIMESTAMP or TIMESTAMP_LTZ column");
    }
    if (options.timeExtractorKind().equals("custom")) {
      throw new TableDefinitionException(
          "Option '"
              + key
              + "' needs the default time extractor; a custom extractor ('"
              + TableOptions.TIME_EXTRACTOR_KIND
              + "' = 'custom') cannot be inverted");
    }
    String pattern = options.timestampPattern().orElse(null);
    String formatter = options.timestampFormatter().orElse(null);
    TimestampPattern resolved = resolve(table.partitionKeys(), pattern);
    LinkedHashMap<String, FieldType> types = new LinkedHashMap<>();
    for (String derived : resolved.keysUsed()) {
      types.put(derived, schema.getField(derived).getType());
    }
    PartitionDeriver deriver =
        create(
            table.partitionKeys(),
            pattern,
            formatter,
            name,
            type == ColumnType.TIMESTAMP_LTZ ? options.watermarkTimeZone() : null,
            types);
    return Optional.of(deriver);
  }

  /**
   * A deriver of partition value texts only (no column, no types): {@link #derive} works, {@link
   * #apply} does not. Checks the settings like {@link #forTable}.
   */
  static PartitionDeriver of(
      List<String> partitionKeys, @Nullable String pattern, @Nullable String formatterPattern) {
    return create(partitionKeys, pattern, formatterPattern, null, null, new LinkedHashMap<>());
  }

  private static PartitionDeriver create(
      List<String> keys,
      @Nullable String pattern,
      @Nullable String formatterPattern,
      @Nullable String timeColumn,
      @Nullable ZoneId zone,
      LinkedHashMap<String, FieldType> types) {
    TimestampPattern resolved = resolve(keys, pattern);
    String where = describe(pattern, formatterPattern);
    if (resolved.keysUsed().isEmpty()) {
      throw new TableDefinitionException(
          "Cannot derive partition values: " + where + " names no partition key; use e.g. '$dt'");
    }
    if (resolved.hasAdjacentKeys()) {
      throw new TableDefinitionException(
          "Cannot derive partition values: "
              + where
              + " has two keys with nothing between them,"
              + " so the text cannot be cut into values; put a separator between them (e.g. '$dt $hour:00:00')");
    }
    String formatPattern = formatterPattern;
    if (formatPattern == null) {
      // A bare date when the pattern fits one (e.g. just '$dt'), else date and time.
      String dateText = SAMPLES.get(0).format(DateTimeFormatter.ofPattern(DATE_FORM, Locale.ROOT));
      formatPattern = resolved.split(dateText).isPresent() ? DATE_FORM : DATE_TIME_FORM;
    }
    PartitionDeriver deriver =
        new PartitionDeriver(
            keys, pattern, formatterPattern, formatPattern, timeColumn, zone, types);
    deriver.check();
    return deriver;
  }

  private static TimestampPattern resolve(List<String> keys, @Nullable String pattern) {
    return pattern == null
        ? TimestampPattern.firstKey(keys)
        : TimestampPattern.parse(pattern, keys);
  }

  /** The partition keys whose values are derived, in pattern order. */
  List<String> derivedKeys() {
    return pattern().keysUsed();
  }

  /** The event-time column, when built for a table. */
  Optional<String> timeColumn() {
    return Optional.ofNullable(timeColumn);
  }

  /** Derived key → value text for a local event time; every value null for a null time. */
  Map<String, String> derive(@Nullable LocalDateTime eventTime) {
    if (eventTime == null) {
      Map<String, String> nulls = new LinkedHashMap<>();
      derivedKeys().forEach(k -> nulls.put(k, null));
      return nulls;
    }
    String text = formatter().format(eventTime);
    return pattern()
        .split(text)
        .orElseThrow(
            () ->
                new PartitionTimeException(
                    "Cannot derive partition values from event time "
                        + eventTime
                        + ": its text '"
                        + text
                        + "' does not fit "
                        + describe(pattern, formatterPattern)));
  }

  /**
   * The local event time of a time column value: a TIMESTAMP ({@link LocalDateTime}) as is, a
   * TIMESTAMP_LTZ ({@link org.joda.time.Instant}) in the watermark time zone; null stays null.
   */
  @Nullable LocalDateTime localTime(@Nullable Object columnValue) {
    if (columnValue == null) {
      return null;
    }
    if (columnValue instanceof LocalDateTime) {
      return (LocalDateTime) columnValue;
    }
    if (columnValue instanceof org.joda.time.ReadableInstant) {
      if (zone == null) {
        throw new IllegalStateException("A TIMESTAMP_LTZ value needs the watermark time zone");
      }
      long millis = ((org.joda.time.ReadableInstant) columnValue).getMillis();
      return LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), zone);
    }
    throw new IllegalArgumentException(
        "Event time column value "
            + columnValue
            + " of "
            + columnValue.getClass().getName()
            + " is neither a TIMESTAMP (LocalDateTime) nor a TIMESTAMP_LTZ (org.joda.time.Instant)");
  }

  /**
   * The row with the derived partition columns set from its event-time column (the row's own values
   * of those columns are replaced). Only for a deriver built by {@link #forTable}.
   */
  public Row apply(Row row) {
    if (timeColumn == null) {
      throw new IllegalStateException("PartitionDeriver.of(...) derives texts only; use forTable");
    }
    Map<String, String> texts = derive(localTime(row.getValue(timeColumn)));
    Map<String, Object> typed = typed(texts);
    Row.FieldValueBuilder builder = Row.fromRow(row);
    for (Map.Entry<String, Object> e : typed.entrySet()) {
      builder = builder.withFieldValue(e.getKey(), e.getValue());
    }
    return builder.build();
  }

  private Map<String, Object> typed(Map<String, String> texts) {
    if (texts.equals(lastTexts) && lastTyped != null) {
      return lastTyped; // rows of one partition come in runs: parse each value once per run
    }
    Map<String, Object> typed = new LinkedHashMap<>();
    texts.forEach((k, v) -> typed.put(k, PartitionValues.parse(v, keyTypes.get(k))));
    lastTexts = texts;
    lastTyped = typed;
    return typed;
  }

  /** Checks the settings on the sample times; see the class comment. */
  private void check() {
    DefaultPartitionTimeExtractor extractor =
        new DefaultPartitionTimeExtractor(pattern, formatterPattern);
    String where = describe(pattern, formatterPattern);
    for (LocalDateTime sample : SAMPLES) {
      Map<String, String> texts;
      try {
        texts = derive(sample);
      } catch (PartitionTimeException e) {
        throw new TableDefinitionException(
            "Cannot derive partition values with "
                + where
                + ": "
                + e.getMessage()
                + "; the pattern must describe the formatter's text with '$key' in place of values");
      }
      List<String> values = new ArrayList<>();
      for (String key : partitionKeys) {
        String text = texts.containsKey(key) ? texts.get(key) : "0";
        FieldType type = keyTypes.get(key);
        if (type != null && texts.containsKey(key)) {
          String written;
          try {
            written = PartitionValues.format(PartitionValues.parse(text, type), type);
          } catch (IllegalArgumentException e) {
            throw new TableDefinitionException(
                "Cannot derive partition column '"
                    + key
                    + "' with "
                    + where
                    + ": derived value '"
                    + text
                    + "' does not fit its type: "
                    + e.getMessage());
          }
          if (!written.equals(text) && !readsBackTheSame(extractor, texts, key, written)) {
            throw new TableDefinitionException(
                "Cannot derive partition column '"
                    + key
                    + "' with "
                    + where
                    + ": derived value '"
                    + text
                    + "' is written as '"
                    + written
                    + "' by its column type "
                    + ColumnType.of(type)
                    + ", which the extractor reads back differently;"
                    + " declare '"
                    + key
                    + "' as STRING");
          }
          text = written;
        }
        values.add(text);
      }
      LocalDateTime back;
      try {
        back = extractor.extract(partitionKeys, values);
      } catch (RuntimeException e) {
        throw new TableDefinitionException(
            "Cannot derive partition values with "
                + where
                + ": the derived values "
                + texts
                + " do not read back as a time: "
                + e.getMessage());
      }
      if (back.isAfter(sample) || !derive(back).equals(texts)) {
        throw new TableDefinitionException(
            "Cannot derive partition values with "
                + where
                + ": event time "
                + sample
                + " gives "
                + texts
                + ", which reads back as "
                + back
                + "; the pattern's literal parts must only truncate the time (e.g. ':00:00')");
      }
    }
  }

  private boolean readsBackTheSame(
      DefaultPartitionTimeExtractor extractor,
      Map<String, String> texts,
      String key,
      String written) {
    List<String> asDerived = new ArrayList<>();
    List<String> asWritten = new ArrayList<>();
    for (String k : partitionKeys) {
      String text = texts.containsKey(k) ? texts.get(k) : "0";
      asDerived.add(text);
      asWritten.add(k.equals(key) ? written : text);
    }
    try {
      return extractor
          .extract(partitionKeys, asDerived)
          .equals(extractor.extract(partitionKeys, asWritten));
    } catch (RuntimeException e) {
      return false;
    }
  }

  private TimestampPattern pattern() {
    TimestampPattern p = resolved;
    if (p == null) {
      p = resolve(partitionKeys, pattern);
      resolved = p;
    }
    return p;
  }

  private DateTimeFormatter formatter() {
    DateTimeFormatter f = formatter;
    if (f == null) {
      f = DateTimeFormatter.ofPattern(formatPattern, Locale.ROOT);
      formatter = f;
    }
    return f;
  }

  private static String describe(@Nullable String pattern, @Nullable String formatter) {
    return "timestamp-pattern "
        + (pattern != null ? "'" + pattern + "'" : "(none: the first partition key)")
        + " and timestamp-formatter "
        + (formatter != null ? "'" + formatter + "'" : "(none: yyyy-MM-dd[ HH:mm:ss])");
  }
}
