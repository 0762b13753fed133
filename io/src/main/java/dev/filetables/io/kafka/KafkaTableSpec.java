package dev.filetables.io.kafka;

import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.table.BadRecordPolicy;
import dev.filetables.io.table.WatermarkSpec;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.beam.sdk.schemas.Schema;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A Kafka source table: the topic(s) to read, consumer properties, where to start, how a record
 * value becomes a row of {@link #schema()} (a row format: json or csv) and, with a {@code
 * WATERMARK} clause, which column gives event time.
 *
 * <p>Parse one from DDL with {@link KafkaTables#parse}; the transforms module turns it into a
 * KafkaIO read ({@code dev.filetables.transforms.kafka.KafkaTableSource}). Immutable and
 * serializable.
 */
public final class KafkaTableSpec implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final Schema schema;
  private final ArrayList<String> topics;
  private final TreeMap<String, String> consumerProperties;
  private final StartupMode startupMode;
  private final String formatName;
  private final TreeMap<String, String> formatOptions;
  private final @Nullable WatermarkSpec watermark;
  private final @Nullable Duration idleTimeout;
  private final BadRecordPolicy badRecordPolicy;
  private final @Nullable String deadLetterPath;

  KafkaTableSpec(
      String name,
      Schema schema,
      List<String> topics,
      Map<String, String> consumerProperties,
      StartupMode startupMode,
      String formatName,
      Map<String, String> formatOptions,
      @Nullable WatermarkSpec watermark,
      @Nullable Duration idleTimeout,
      BadRecordPolicy badRecordPolicy,
      @Nullable Path deadLetterPath) {
    this.name = name;
    this.schema = schema;
    this.topics = new ArrayList<>(topics);
    this.consumerProperties = new TreeMap<>(consumerProperties);
    this.startupMode = startupMode;
    this.formatName = formatName;
    this.formatOptions = new TreeMap<>(formatOptions);
    this.watermark = watermark;
    this.idleTimeout = idleTimeout;
    this.badRecordPolicy = badRecordPolicy;
    this.deadLetterPath = deadLetterPath == null ? null : deadLetterPath.toString();
  }

  public String name() {
    return name;
  }

  /** The declared columns: what every record value decodes into. */
  public Schema schema() {
    return schema;
  }

  /** {@code topic}: one topic, or several separated by {@code ;}. */
  public List<String> topics() {
    return Collections.unmodifiableList(topics);
  }

  /** {@code properties.bootstrap.servers}. */
  public String bootstrapServers() {
    return consumerProperties.get("bootstrap.servers");
  }

  /**
   * {@code properties.group.id}; offsets are committed to Kafka (with checkpoints) only when set.
   */
  public Optional<String> groupId() {
    return Optional.ofNullable(consumerProperties.get("group.id"));
  }

  /** Every {@code properties.*} option without its prefix: the consumer configuration. */
  public Map<String, String> consumerProperties() {
    return Collections.unmodifiableMap(consumerProperties);
  }

  public StartupMode startupMode() {
    return startupMode;
  }

  /** {@code json} or {@code csv}. */
  public String formatName() {
    return formatName;
  }

  /** The record value format, with the table's {@code <format>.*} options. */
  public FileFormat format() {
    return FileFormats.forName(formatName, formatOptions);
  }

  /**
   * The record value format for decoding with {@link #badRecordPolicy()} applied by the source:
   * without {@code ignore-parse-errors}, so that every bad value reaches the policy (which logs and
   * dead-letters it with topic, partition and offset) instead of vanishing inside the decoder.
   */
  public FileFormat strictFormat() {
    TreeMap<String, String> strict = new TreeMap<>(formatOptions);
    strict.remove(FileFormats.IGNORE_PARSE_ERRORS);
    return FileFormats.forName(formatName, strict);
  }

  /**
   * {@code source.bad-records}: what a record value that does not decode does ({@code fail} by
   * default; {@code <format>.ignore-parse-errors = true} means {@code skip}).
   */
  public BadRecordPolicy badRecordPolicy() {
    return badRecordPolicy;
  }

  /**
   * {@code source.bad-records.dead-letter.path}: the dead-letter table's root (policy dead-letter).
   */
  public Optional<Path> deadLetterPath() {
    return Optional.ofNullable(deadLetterPath).map(Path::of);
  }

  public Optional<WatermarkSpec> watermark() {
    return Optional.ofNullable(watermark);
  }

  /**
   * {@code scan.watermark.idle-timeout}: a partition with no backlog that received nothing for this
   * long stops holding the watermark back. Empty: partitions never count as idle.
   */
  public Optional<Duration> idleTimeout() {
    return Optional.ofNullable(idleTimeout);
  }

  @Override
  public String toString() {
    return "Kafka table `"
        + name
        + "` (topic "
        + String.join(";", topics)
        + " at "
        + bootstrapServers()
        + ", "
        + formatName
        + ")";
  }
}
