package dev.filetables.benchmarks;

import dev.filetables.pipelines.OrdersDataset;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.Row;

/**
 * Generates the demo's orders ({@link OrdersDataset#order}) inside the pipeline, in parallel. Two
 * inputs are accepted:
 *
 * <ul>
 *   <li>{@link #perSlice}: a slice number of {@code slices} → all its rows (the benchmark's
 *       default). The rows come out of a DoFn, not out of a source: the Flink runner updates its
 *       metrics after every element a source emits, which costs about as much as writing the row;
 *   <li>{@link #perRow}: a row number (from {@code GenerateSequence}, as {@code filetables demo}
 *       does) → that row.
 * </ul>
 */
final class BatchOrdersFn extends DoFn<Long, Row> {
  private static final long serialVersionUID = 1L;
  private final long total;
  private final long seed;
  private final long slices;

  private BatchOrdersFn(long total, long seed, long slices) {
    this.total = total;
    this.seed = seed;
    this.slices = slices;
  }

  /**
   * Input: slice numbers 0..slices-1; slice {@code i} holds rows {@code [i*total/slices,
   * (i+1)*total/slices)}.
   */
  static BatchOrdersFn perSlice(long total, long seed, long slices) {
    return new BatchOrdersFn(total, seed, slices);
  }

  /** Input: row numbers 0..total-1. */
  static BatchOrdersFn perRow(long total, long seed) {
    return new BatchOrdersFn(total, seed, 0);
  }

  @ProcessElement
  public void process(@Element Long input, OutputReceiver<Row> out) {
    if (slices == 0) {
      out.output(OrdersDataset.order(input, total, seed));
      return;
    }
    long end = sliceStart(input + 1);
    for (long index = sliceStart(input); index < end; index++) {
      out.output(OrdersDataset.order(index, total, seed));
    }
  }

  private long sliceStart(long slice) {
    // floor(total * slice / slices) without overflow: total = q * slices + r
    return total / slices * slice + total % slices * slice / slices;
  }
}
