package dev.filetables.transforms;

import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.source.ReadResult;
import dev.filetables.transforms.source.ReadSteps;
import java.util.Optional;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PInput;
import org.apache.beam.sdk.values.Row;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A read and, when the source has a dead-letter table, the write of its bad records into it ({@code
 * WriteDeadLetters}, a {@link FileTableIO#write}: the batch or the streaming write, as the read is
 * bounded or not); outputs the rows. The one place a read's dead letters are written, for {@link
 * FileTableIO.Read} and {@code KafkaTableSource} alike.
 *
 * <p>The read's steps are applied directly in this step, beside the write: that is where both have
 * always been, and their names are the Flink operator uids that savepoints are restored by.
 * Internal (public for {@code KafkaTableSource}).
 */
@Internal
public final class ReadWithDeadLetters<InputT extends PInput>
    extends PTransform<InputT, PCollection<Row>> {
  private static final long serialVersionUID = 1L;

  private final ReadSteps<InputT> read;
  private final @Nullable TableSpec deadLetterTable;

  private ReadWithDeadLetters(ReadSteps<InputT> read, @Nullable TableSpec deadLetterTable) {
    this.read = read;
    this.deadLetterTable = deadLetterTable;
  }

  /**
   * {@code read}, its bad records written to {@code deadLetterTable} when present (from {@code
   * DeadLetterTable.of}: present exactly when the policy is {@code dead-letter}).
   */
  public static <InputT extends PInput> ReadWithDeadLetters<InputT> of(
      ReadSteps<InputT> read, Optional<TableSpec> deadLetterTable) {
    return new ReadWithDeadLetters<>(read, deadLetterTable.orElse(null));
  }

  @Override
  public PCollection<Row> expand(InputT input) {
    ReadResult result = read.applyTo(input);
    if (deadLetterTable != null) {
      result.deadLetters().apply("WriteDeadLetters", FileTableIO.write(deadLetterTable));
    }
    return result.rows();
  }
}
