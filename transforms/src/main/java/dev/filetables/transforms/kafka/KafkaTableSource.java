package dev.filetables.transforms.kafka;

import dev.filetables.io.kafka.KafkaTableSpec;
import dev.filetables.transforms.ReadWithDeadLetters;
import dev.filetables.transforms.source.DeadLetterTable;
import dev.filetables.transforms.source.ReadResult;
import dev.filetables.transforms.source.ReadSteps;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.io.kafka.KafkaRecordCoder;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * Reads a Kafka table: KafkaIO records of the table's topics, each value decoded into a row of the
 * table's schema with the table's format, timestamped by the {@code WATERMARK} column.
 *
 * <pre>{@code
 * KafkaTableSpec orders = KafkaTables.parseFile(Path.of("orders_in.sql"));
 * pipeline.apply(KafkaTableSource.of(orders)).apply(FileTableIO.write(table));
 * }</pre>
 *
 * <p>Exactly-once with checkpoints:
 *
 * <ul>
 *   <li>Offsets are committed to Kafka only when a checkpoint completes (KafkaIO's {@code
 *       commitOffsetsInFinalize}, with {@code properties.group.id}); auto-commit is off. The job's
 *       own position lives in its checkpoints; the group's committed offsets are for monitoring and
 *       for a fresh start with {@code group-offsets}.
 *   <li>Beam 2.62's Flink runner reads restored splits of an unbounded source again next to fresh
 *       ones after a restore (apache/beam#31313), which would duplicate records. {@link
 *       DropReplayedOffsetsFn} remembers, per topic partition in checkpointed keyed state, the
 *       highest offset already emitted and drops records at or below it: one long per partition.
 * </ul>
 *
 * <p>Steps (their names are the Flink operator uids, so keep them stable for savepoints): {@code
 * ReadKafka}, {@code KeyByPartition}, {@code DropReplayedOffsets}, {@code DecodeValues} (with
 * {@code source.bad-records} = {@code dead-letter}: {@code DecodeValues/WriteDeadLetters}).
 */
public final class KafkaTableSource extends PTransform<PBegin, PCollection<Row>> {
  private static final long serialVersionUID = 1L;

  /**
   * Coder of the records between the steps: keys and values may be null (a tombstone is a bad
   * record, not a crash).
   */
  static final KafkaRecordCoder<byte[], byte[]> RECORD_CODER =
      KafkaRecordCoder.of(
          NullableCoder.of(ByteArrayCoder.of()), NullableCoder.of(ByteArrayCoder.of()));

  private final KafkaTableSpec table;

  private KafkaTableSource(KafkaTableSpec table) {
    this.table = table;
  }

  public static KafkaTableSource of(KafkaTableSpec table) {
    if (table == null) {
      throw new IllegalArgumentException("KafkaTableSource.of: table is null");
    }
    return new KafkaTableSource(table);
  }

  /** The KafkaIO read this source starts with (exposed for tests). */
  KafkaIO.Read<byte[], byte[]> kafkaRead() {
    Map<String, Object> consumer = new HashMap<>(table.consumerProperties());
    consumer.remove("bootstrap.servers"); // given with withBootstrapServers
    // Offsets go to Kafka with finalized checkpoints only, never behind the job's back.
    consumer.put("enable.auto.commit", false);
    KafkaIO.Read<byte[], byte[]> read =
        KafkaIO.readBytes()
            .withBootstrapServers(table.bootstrapServers())
            .withTopics(table.topics())
            .withConsumerConfigUpdates(consumer)
            .withConsumerFactoryFn(new StartPositionConsumer.Factory(table.startupMode()));
    if (table.groupId().isPresent()) {
      read = read.commitOffsetsInFinalize();
    }
    if (table.watermark().isPresent()) {
      read = read.withTimestampPolicyFactory(new EventTimePolicy.Factory(table));
    }
    return read;
  }

  @Override
  public PCollection<Row> expand(PBegin input) {
    PCollection<KafkaRecord<byte[], byte[]>> records = input.apply("ReadKafka", kafkaRead());
    return records
        .apply(
            "KeyByPartition",
            MapElements.into(
                    TypeDescriptors.kvs(
                        TypeDescriptors.strings(),
                        new TypeDescriptor<KafkaRecord<byte[], byte[]>>() {}))
                .via(r -> KV.of(r.getTopic() + "-" + r.getPartition(), r)))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), RECORD_CODER))
        .apply("DropReplayedOffsets", ParDo.of(new DropReplayedOffsetsFn()))
        .setCoder(RECORD_CODER)
        .apply("DecodeValues", decodeValues(table));
  }

  /**
   * {@code DecodeValues}: record values into rows ({@link DecodeValues}); with {@code
   * source.bad-records} = {@code dead-letter} the bad records go to the table's dead-letter table
   * ({@code WriteDeadLetters}).
   */
  static ReadWithDeadLetters<PCollection<KafkaRecord<byte[], byte[]>>> decodeValues(
      KafkaTableSpec table) {
    return ReadWithDeadLetters.of(new DecodeValues(table), DeadLetterTable.of(table));
  }

  /** Record values into rows ({@link DecodeRecordFn}), bad records beside them. */
  static final class DecodeValues implements ReadSteps<PCollection<KafkaRecord<byte[], byte[]>>> {
    private static final long serialVersionUID = 1L;
    private final KafkaTableSpec table;

    DecodeValues(KafkaTableSpec table) {
      this.table = table;
    }

    @Override
    public ReadResult applyTo(PCollection<KafkaRecord<byte[], byte[]>> records) {
      PCollectionTuple decoded =
          records.apply(
              "Decode",
              ParDo.of(new DecodeRecordFn(table))
                  .withOutputTags(
                      DecodeRecordFn.ROWS, TupleTagList.of(DecodeRecordFn.DEAD_LETTERS)));
      return ReadResult.of(
          decoded.get(DecodeRecordFn.ROWS).setRowSchema(table.schema()),
          decoded.get(DecodeRecordFn.DEAD_LETTERS).setRowSchema(DeadLetterTable.SCHEMA));
    }
  }
}
