package dev.filetables.io.kafka;

import dev.filetables.io.format.FileFormats;
import dev.filetables.io.table.BadRecordPolicy;
import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.DdlParser;
import dev.filetables.io.table.DdlStatement;
import dev.filetables.io.table.DdlStatement.Column;
import dev.filetables.io.table.Durations;
import dev.filetables.io.table.FileSystemOptions;
import dev.filetables.io.table.KeySuggestions;
import dev.filetables.io.table.OptionMessages;
import dev.filetables.io.table.TableDefinitionException;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.schemas.Schema;

/**
 * Reads {@code 'connector' = 'kafka'} tables from DDL, with the Flink Kafka connector's keys:
 *
 * <pre>
 * CREATE TABLE orders_in (
 *   order_id BIGINT, amount DECIMAL(10, 2), order_ts TIMESTAMP(3),
 *   WATERMARK FOR order_ts AS order_ts - INTERVAL '5' SECOND
 * ) WITH (
 *   'connector' = 'kafka', 'topic' = 'orders',
 *   'properties.bootstrap.servers' = 'localhost:9092', 'properties.group.id' = 'orders-to-table',
 *   'scan.startup.mode' = 'earliest-offset', 'format' = 'json',
 *   'scan.watermark.idle-timeout' = '30 s'
 * );
 * </pre>
 *
 * Unknown keys fail with the closest known key; {@code properties.*} keys go to the consumer as
 * they are; {@code json.*} / {@code csv.*} are the format's own options, checked by the format.
 */
public final class KafkaTables {
  public static final String CONNECTOR = "connector";
  public static final String TOPIC = "topic";
  public static final String PROPERTIES_PREFIX = "properties.";
  public static final String BOOTSTRAP_SERVERS = "properties.bootstrap.servers";
  public static final String GROUP_ID = "properties.group.id";
  public static final String STARTUP_MODE = "scan.startup.mode";
  public static final String FORMAT = "format";
  public static final String IDLE_TIMEOUT = "scan.watermark.idle-timeout";

  /**
   * The file sources' dirty-data option: fail, skip or dead-letter (see {@link BadRecordPolicy}).
   */
  public static final String BAD_RECORDS = FileSystemOptions.SOURCE_BAD_RECORDS.key();

  public static final String DEAD_LETTER_PATH =
      FileSystemOptions.SOURCE_BAD_RECORDS_DEAD_LETTER_PATH.key();

  /** Row formats a record value can have. */
  public static final List<String> FORMATS = List.of("json", "csv");

  static final List<String> KEYS =
      List.of(
          CONNECTOR,
          TOPIC,
          BOOTSTRAP_SERVERS,
          GROUP_ID,
          STARTUP_MODE,
          FORMAT,
          IDLE_TIMEOUT,
          BAD_RECORDS,
          DEAD_LETTER_PATH);

  /** Consumer settings the source owns: a table that sets them would break offsets or decoding. */
  private static final List<String> OWNED_PROPERTIES =
      List.of("enable.auto.commit", "key.deserializer", "value.deserializer");

  private KafkaTables() {}

  /** True when the statement declares {@code 'connector' = 'kafka'}. */
  public static boolean isKafka(DdlStatement statement) {
    return "kafka".equals(statement.options().get(CONNECTOR));
  }

  public static KafkaTableSpec parse(String ddl) {
    return fromStatement(DdlParser.parseStatement(ddl));
  }

  public static KafkaTableSpec parseFile(Path file) {
    return fromStatement(DdlParser.parseStatementFile(file));
  }

  /** Applies the Kafka table rules to a parsed statement; problems name the line of the key. */
  public static KafkaTableSpec fromStatement(DdlStatement statement) {
    Map<String, String> options = statement.options();
    String connector = options.get(CONNECTOR);
    if (!"kafka".equals(connector)) {
      throw statement.errorAt(
          statement.optionLocation(CONNECTOR),
          "a Kafka table needs 'connector' = 'kafka'"
              + (connector == null ? "" : ", not '" + connector + "'"));
    }
    statement.rejectComputedColumns();
    for (Column column : statement.columns()) {
      if (column.isMetadata()) {
        throw statement.errorAt(
            column.location(),
            "METADATA column `"
                + column.name()
                + "`: Kafka tables have no metadata columns here; declare only columns of the record value");
      }
    }
    if (!statement.partitionKeys().isEmpty()) {
      throw statement.errorAt(
          statement.partitionKeyLocation(statement.partitionKeys().get(0)),
          "PARTITIONED BY is for file tables; a Kafka table reads every partition of its topic");
    }

    Map<String, String> formatOptions = new LinkedHashMap<>();
    Map<String, String> consumer = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : options.entrySet()) {
      String key = e.getKey();
      String value = e.getValue();
      if (key.startsWith(PROPERTIES_PREFIX)) {
        String property = key.substring(PROPERTIES_PREFIX.length());
        if (property.isEmpty()) {
          throw statement.errorAt(
              statement.optionLocation(key), "Option 'properties.' names no consumer property");
        }
        if (OWNED_PROPERTIES.contains(property)) {
          throw statement.errorAt(
              statement.optionLocation(key),
              "Option '"
                  + key
                  + "' cannot be set: the source commits offsets with checkpoints and decodes values with 'format'");
        }
        consumer.put(property, value);
        continue;
      }
      int dot = key.indexOf('.');
      if (dot > 0 && FORMATS.contains(key.substring(0, dot))) {
        continue; // format options: checked with the format below
      }
      if (!KEYS.contains(key)) {
        throw statement.errorAt(statement.optionLocation(key), unknownKey(key));
      }
    }

    String topicText =
        required(statement, TOPIC, "the topic to read, e.g. 'topic' = 'orders' (several: 'a;b')");
    List<String> topics = new ArrayList<>();
    for (String topic : topicText.split(";", -1)) {
      String t = topic.strip();
      if (t.isEmpty() || !t.matches("[a-zA-Z0-9._-]+")) {
        throw statement.errorAt(
            statement.optionLocation(TOPIC),
            OptionMessages.invalidValue(
                TOPIC,
                topicText,
                "a topic name is letters, digits, '.', '_' or '-'; separate several with ';'"));
      }
      topics.add(t);
    }
    String servers =
        required(statement, BOOTSTRAP_SERVERS, "the brokers to connect to, e.g. 'localhost:9092'");
    if (servers.isBlank()) {
      throw statement.errorAt(
          statement.optionLocation(BOOTSTRAP_SERVERS),
          OptionMessages.invalidValue(BOOTSTRAP_SERVERS, servers, "give host:port[,host:port...]"));
    }

    StartupMode mode = StartupMode.GROUP_OFFSETS;
    String modeText = options.get(STARTUP_MODE);
    if (modeText != null) {
      mode =
          StartupMode.of(modeText)
              .orElseThrow(
                  () ->
                      statement.errorAt(
                          statement.optionLocation(STARTUP_MODE),
                          OptionMessages.invalidValue(
                              STARTUP_MODE,
                              modeText,
                              "supported: "
                                  + StartupMode.supported()
                                  + " (Flink's 'timestamp' and 'specific-offsets' are not supported)")));
    }
    if (mode == StartupMode.GROUP_OFFSETS && !consumer.containsKey("group.id")) {
      throw statement.errorAt(
          statement.optionLocation(STARTUP_MODE),
          "'scan.startup.mode' = 'group-offsets' (the default) needs 'properties.group.id'; set it, or start from 'earliest-offset' or 'latest-offset'");
    }

    String format =
        required(statement, FORMAT, "the record value format: " + String.join(" or ", FORMATS));
    if (!FORMATS.contains(format)) {
      throw statement.errorAt(
          statement.optionLocation(FORMAT),
          OptionMessages.invalidValue(
              FORMAT,
              format,
              "a Kafka record value is one row: supported formats are "
                  + String.join(", ", FORMATS)));
    }
    for (Map.Entry<String, String> e : options.entrySet()) {
      String key = e.getKey();
      int dot = key.indexOf('.');
      if (dot > 0
          && FORMATS.contains(key.substring(0, dot))
          && !key.startsWith(PROPERTIES_PREFIX)) {
        if (!key.startsWith(format + ".")) {
          throw statement.errorAt(
              statement.optionLocation(key),
              "Option '"
                  + key
                  + "' belongs to format '"
                  + key.substring(0, dot)
                  + "', but the table's format is '"
                  + format
                  + "'");
        }
        formatOptions.put(key.substring(format.length() + 1), e.getValue());
      }
    }
    try {
      FileFormats.forName(format, formatOptions);
    } catch (TableDefinitionException e) {
      String firstKey =
          formatOptions.keySet().stream().map(k -> format + "." + k).findFirst().orElse(FORMAT);
      throw statement.errorAt(statement.optionLocation(firstKey), e.getMessage());
    }

    Duration idle = null;
    String idleText = options.get(IDLE_TIMEOUT);
    if (idleText != null) {
      try {
        idle = Durations.parse(idleText);
      } catch (IllegalArgumentException e) {
        throw statement.errorAt(
            statement.optionLocation(IDLE_TIMEOUT),
            OptionMessages.invalidValue(IDLE_TIMEOUT, idleText, e.getMessage()));
      }
      if (idle.isNegative()) {
        throw statement.errorAt(
            statement.optionLocation(IDLE_TIMEOUT),
            OptionMessages.invalidValue(IDLE_TIMEOUT, idleText, "must not be negative"));
      }
      if (idle.isZero()) {
        idle = null; // Flink's meaning of 0: idleness detection off
      }
    }
    if (idle != null && statement.watermark().isEmpty()) {
      throw statement.errorAt(
          statement.optionLocation(IDLE_TIMEOUT),
          "'"
              + IDLE_TIMEOUT
              + "' needs a WATERMARK clause: without one the table has no event time");
    }

    BadRecordPolicy policy = badRecordPolicy(statement, format, formatOptions);
    Path deadLetters = deadLetterPath(statement, policy);

    Schema.Builder schema = Schema.builder();
    for (Column column : statement.columns()) {
      schema.addField(column.name(), column.type());
    }
    Schema built = schema.build();
    statement
        .watermark()
        .ifPresent(
            w -> {
              if (!built.hasField(w.column())) {
                throw statement.errorAt(
                    statement.watermarkLocation(),
                    "watermark column `" + w.column() + "` is not a column of the table");
              }
              ColumnType columnType = ColumnType.of(built.getField(w.column()).getType());
              if (columnType != ColumnType.TIMESTAMP && columnType != ColumnType.TIMESTAMP_LTZ) {
                throw statement.errorAt(
                    statement.watermarkLocation(),
                    "watermark column `"
                        + w.column()
                        + "` is "
                        + columnType
                        + "; it must be TIMESTAMP(3) or TIMESTAMP_LTZ(3)");
              }
            });
    return new KafkaTableSpec(
        statement.name(),
        built,
        topics,
        consumer,
        mode,
        format,
        formatOptions,
        statement.watermark().orElse(null),
        idle,
        policy,
        deadLetters);
  }

  /**
   * {@code source.bad-records}, as for file tables; {@code <format>.ignore-parse-errors = true}
   * means skip.
   */
  private static BadRecordPolicy badRecordPolicy(
      DdlStatement statement, String format, Map<String, String> formatOptions) {
    String ignore = formatOptions.get(FileFormats.IGNORE_PARSE_ERRORS);
    boolean formatSkips = ignore != null && ignore.trim().equalsIgnoreCase("true");
    String value = statement.options().get(BAD_RECORDS);
    if (value == null) {
      return formatSkips ? BadRecordPolicy.SKIP : BadRecordPolicy.FAIL;
    }
    BadRecordPolicy policy;
    try {
      policy = FileSystemOptions.SOURCE_BAD_RECORDS.parse(value);
    } catch (TableDefinitionException e) {
      throw statement.errorAt(statement.optionLocation(BAD_RECORDS), e.getMessage());
    }
    if (formatSkips && policy != BadRecordPolicy.SKIP) {
      throw statement.errorAt(
          statement.optionLocation(BAD_RECORDS),
          "Option '"
              + BAD_RECORDS
              + "' = '"
              + value
              + "' contradicts '"
              + format
              + "."
              + FileFormats.IGNORE_PARSE_ERRORS
              + "' = 'true' (which means skip); remove one of them");
    }
    return policy;
  }

  private static Path deadLetterPath(DdlStatement statement, BadRecordPolicy policy) {
    String value = statement.options().get(DEAD_LETTER_PATH);
    if (policy == BadRecordPolicy.DEAD_LETTER && value == null) {
      throw statement.errorAt(
          statement.optionLocation(BAD_RECORDS),
          "Option '"
              + BAD_RECORDS
              + "' = 'dead-letter' requires option '"
              + DEAD_LETTER_PATH
              + "': the root directory of the dead-letter table");
    }
    if (value == null) {
      return null;
    }
    if (policy != BadRecordPolicy.DEAD_LETTER) {
      throw statement.errorAt(
          statement.optionLocation(DEAD_LETTER_PATH),
          "Option '"
              + DEAD_LETTER_PATH
              + "' is set but '"
              + BAD_RECORDS
              + "' is '"
              + policy.optionValue()
              + "'; set '"
              + BAD_RECORDS
              + "' = 'dead-letter' to write bad records there, or remove the path");
    }
    try {
      Path path = value.startsWith("file:") ? Path.of(URI.create(value)) : Path.of(value);
      if (value.isBlank()) {
        throw new InvalidPathException(value, "empty");
      }
      return path.toAbsolutePath().normalize();
    } catch (IllegalArgumentException e) { // InvalidPathException too
      throw statement.errorAt(
          statement.optionLocation(DEAD_LETTER_PATH),
          OptionMessages.invalidValue(
              DEAD_LETTER_PATH,
              value,
              "a local directory path or file: URI (" + e.getMessage() + ")"));
    }
  }

  private static String required(DdlStatement statement, String key, String what) {
    String value = statement.options().get(key);
    if (value == null) {
      throw statement.errorAt(
          statement.optionLocation(key),
          "Kafka table `"
              + statement.name()
              + "` is missing required option '"
              + key
              + "': "
              + what);
    }
    return value;
  }

  private static String unknownKey(String key) {
    List<String> candidates = new ArrayList<>(KEYS);
    Optional<String> closest = KeySuggestions.closest(key, candidates);
    String message = OptionMessages.unknownOption(key, closest);
    if (closest.isEmpty()) {
      message +=
          " Kafka table options: "
              + String.join(", ", KEYS)
              + ", properties.<consumer property>, "
              + String.join(".*, ", FORMATS)
              + ".* (format options)";
    }
    if (key.toLowerCase(Locale.ROOT).startsWith("property.")) {
      message += " Consumer properties start with 'properties.'.";
    }
    return message;
  }
}
