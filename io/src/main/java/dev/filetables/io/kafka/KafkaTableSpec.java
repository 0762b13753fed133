package dev.filetables.io.kafka;

import dev.filetables.io.format.FileFormat;
import dev.filetables.io.format.FileFormats;
import dev.filetables.io.table.WatermarkSpec;
import java.io.Serializable;
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
 * A Kafka source table: the topic(s) to read, consumer properties, where to start, how a record value
 * becomes a row of {@link #schema()} (a row format: json or csv) and, with a {@code WATERMARK} clause,
 * which column gives event time.
 *
 * <p>Parse one from DDL with {@link KafkaTables#parse}; the transforms module turns it into a KafkaIO
 * read ({@code dev.filetables.transforms.kafka.KafkaTableSource}). Immutable and serializable.
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

  KafkaTableSpec(
      String name,
      Schema schema,
      List<String> topics,
      Map<String, String> consumerProperties,
      StartupMode startupMode,
      String formatName,
      Map<String, String> formatOptions,
      @Nullable WatermarkSpec watermark,
      @Nullable Duration idleTimeout) {
    this.name = name;
    this.schema = schema;
    this.topics = new ArrayList<>(topics);
    this.consumerProperties = new TreeMap<>(consumerProperties);
    this.startupMode = startupMode;
    this.formatName = formatName;
    this.formatOptions = new TreeMap<>(formatOptions);
    this.watermark = watermark;
    this.idleTimeout = idleTimeout;
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

  /** {@code properties.group.id}; offsets are committed to Kafka (with checkpoints) only when set. */
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
    return "Kafka table `" + name + "` (topic " + String.join(";", topics) + " at " + bootstrapServers() + ", " + formatName + ")";
  }
}
