package dev.filetables.transforms.source;

import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * What a read outputs: its rows, and its bad records as {@link DeadLetterTable} rows (empty unless
 * the table's policy is {@code dead-letter}). The read leaves the dead letters to whoever wires it,
 * so the source packages do not depend on the sink.
 */
@Internal
public final class ReadResult {
  private final PCollection<Row> rows;
  private final PCollection<Row> deadLetters;

  private ReadResult(PCollection<Row> rows, PCollection<Row> deadLetters) {
    this.rows = rows;
    this.deadLetters = deadLetters;
  }

  /**
   * {@code rows} with the table's schema, {@code deadLetters} with {@link DeadLetterTable#SCHEMA}.
   */
  public static ReadResult of(PCollection<Row> rows, PCollection<Row> deadLetters) {
    return new ReadResult(rows, deadLetters);
  }

  public PCollection<Row> rows() {
    return rows;
  }

  public PCollection<Row> deadLetters() {
    return deadLetters;
  }
}
