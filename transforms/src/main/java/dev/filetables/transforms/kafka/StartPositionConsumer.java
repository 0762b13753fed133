package dev.filetables.transforms.kafka;

import dev.filetables.io.kafka.StartupMode;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A consumer that applies {@code scan.startup.mode} where KafkaIO asks for the position of a
 * partition it has no checkpointed offset for: KafkaIO seeks restored partitions itself and calls
 * {@code position} only for the others, which by default means the group's committed offset or
 * {@code auto.offset.reset}. For {@code earliest-offset} and {@code latest-offset} that position is
 * the beginning or the end of the partition instead, whatever the group committed (as in Flink).
 */
final class StartPositionConsumer extends KafkaConsumer<byte[], byte[]> {
  private final StartupMode mode;
  private final Set<TopicPartition> positioned = new HashSet<>();

  StartPositionConsumer(Map<String, Object> config, StartupMode mode) {
    super(config);
    this.mode = mode;
  }

  /** KafkaIO's consumer factory. */
  static final class Factory
      implements SerializableFunction<Map<String, Object>, Consumer<byte[], byte[]>> {
    private static final long serialVersionUID = 1L;
    private final StartupMode mode;

    Factory(StartupMode mode) {
      this.mode = mode;
    }

    @Override
    public Consumer<byte[], byte[]> apply(Map<String, Object> config) {
      return new StartPositionConsumer(config, mode);
    }
  }

  @Override
  public void seek(TopicPartition partition, long offset) {
    positioned.add(partition);
    super.seek(partition, offset);
  }

  @Override
  public void seek(TopicPartition partition, OffsetAndMetadata offsetAndMetadata) {
    positioned.add(partition);
    super.seek(partition, offsetAndMetadata);
  }

  @Override
  public long position(TopicPartition partition) {
    applyStartupMode(partition);
    return super.position(partition);
  }

  @Override
  public long position(TopicPartition partition, Duration timeout) {
    applyStartupMode(partition);
    return super.position(partition, timeout);
  }

  private void applyStartupMode(TopicPartition partition) {
    if (!positioned.add(partition)) {
      return;
    }
    if (mode == StartupMode.EARLIEST_OFFSET) {
      seekToBeginning(List.of(partition));
    } else if (mode == StartupMode.LATEST_OFFSET) {
      seekToEnd(List.of(partition));
    }
  }
}
