package dev.filetables.transforms.sink;

import dev.filetables.io.partition.time.PartitionDeriver;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;

/**
 * Sets a row's partition columns from its event-time column ({@code
 * sink.partition-derive.time-column}) before it is partitioned, so the partition a row is written
 * to and the time that partition is committed at come from the same pattern and formatter and can
 * never disagree.
 */
@Internal
public final class DerivePartitionsFn extends DoFn<Row, Row> {
  private static final long serialVersionUID = 1L;

  private final PartitionDeriver deriver;

  public DerivePartitionsFn(PartitionDeriver deriver) {
    this.deriver = deriver;
  }

  @ProcessElement
  public void process(@Element Row row, OutputReceiver<Row> out) {
    out.output(deriver.apply(row));
  }
}
