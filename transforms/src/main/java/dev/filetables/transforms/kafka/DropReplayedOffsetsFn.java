package dev.filetables.transforms.kafka;

import java.util.HashSet;
import java.util.Set;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keyed by topic partition: passes a record only if its offset is above the highest offset this
 * step has passed for that partition, and remembers it (one long per partition, in checkpointed
 * state).
 *
 * <p>Records of a partition arrive in offset order (one reader reads a partition; Flink keeps the
 * order of each channel), so a record at or below the highest is one read again: after a restore
 * Beam 2.62's Flink runner reads restored splits next to fresh ones (apache/beam#31313), and a
 * fresh split starts from the startup position. State and source position are restored from the
 * same checkpoint, so what this step passed before the checkpoint is exactly what it drops again.
 */
final class DropReplayedOffsetsFn
    extends DoFn<KV<String, KafkaRecord<byte[], byte[]>>, KafkaRecord<byte[], byte[]>> {
  private static final long serialVersionUID = 1L;
  static final String DROPPED_COUNTER = "kafka-replayed-records-dropped";

  private static final Logger LOG = LoggerFactory.getLogger(DropReplayedOffsetsFn.class);

  private final Counter dropped = Metrics.counter(DropReplayedOffsetsFn.class, DROPPED_COUNTER);
  // partitions whose replays this instance has reported already: one log line each, not one per
  // record
  private transient Set<String> reported;

  @StateId("highestOffset")
  private final StateSpec<ValueState<Long>> highestOffsetSpec = StateSpecs.value(VarLongCoder.of());

  @ProcessElement
  public void process(
      @Element KV<String, KafkaRecord<byte[], byte[]>> element,
      @StateId("highestOffset") ValueState<Long> highestOffset,
      OutputReceiver<KafkaRecord<byte[], byte[]>> out) {
    KafkaRecord<byte[], byte[]> record = element.getValue();
    Long highest = highestOffset.read();
    if (highest != null && record.getOffset() <= highest) {
      dropped.inc();
      if (reported == null) {
        reported = new HashSet<>();
      }
      if (reported.add(element.getKey())) {
        LOG.info(
            "Dropping records of {} read again at or below offset {} (first: offset {}); a restore re-reads"
                + " Kafka splits on Beam 2.62's Flink runner (apache/beam#31313)",
            element.getKey(),
            highest,
            record.getOffset());
      }
      return;
    }
    highestOffset.write(record.getOffset());
    out.output(record);
  }
}
