package dev.filetables.pipelines.sql;

import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.FileTableIO;
import dev.filetables.transforms.sink.WrittenFile;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * Consecutive INSERT statements, run as one job: each table is read once ({@link TableReads}), each
 * query runs on Beam SQL, and its rows go to {@link FileTableIO#write} of the sink table with all
 * its options (partitioning, rolling, partition commit, the exactly-once streaming sink).
 */
@Internal
public final class InsertJob implements SqlJob {
  private final List<Insert> inserts;
  private final ZoneId zone;

  InsertJob(List<Insert> inserts, ZoneId zone) {
    this.inserts = List.copyOf(inserts);
    this.zone = zone;
  }

  @Override
  public String describe() {
    return inserts.stream().map(Insert::describe).collect(Collectors.joining(", "));
  }

  @Override
  public ZoneId timeZone() {
    return zone;
  }

  /** True when a source never ends: a streaming job. */
  public boolean unbounded() {
    return inserts.stream().anyMatch(i -> i.unboundedSource().isPresent());
  }

  /** The sink tables, one per INSERT. */
  public List<TableSpec> sinks() {
    return inserts.stream().map(Insert::sink).toList();
  }

  /**
   * Adds the job to {@code pipeline}; {@code writeUuid} gives the write id of each INSERT's sink
   * (null: a random one). Returns the files each INSERT wrote.
   */
  public List<PCollection<WrittenFile>> expand(
      Pipeline pipeline, Function<Integer, String> writeUuid) {
    TableReads reads = new TableReads(pipeline, zone);
    List<PCollection<WrittenFile>> written = new ArrayList<>();
    for (int i = 0; i < inserts.size(); i++) {
      Insert insert = inserts.get(i);
      String step = insert.describe();
      PCollection<Row> result = insert.query().apply(reads, step);
      Schema target = insert.sink().physicalSchema();
      int[] targetIndexes = targetIndexes(insert, result.getSchema(), target);
      FileTableIO.Write write = FileTableIO.write(insert.sink());
      String uuid = writeUuid.apply(i);
      if (uuid != null) {
        write = write.withWriteUuid(uuid);
      }
      written.add(
          result
              .apply(
                  step + " ToSinkRows",
                  ParDo.of(new SinkRows.ToTargetFn(target, targetIndexes, zone)))
              .setRowSchema(target)
              .apply(step + " Write", write));
    }
    return written;
  }

  private static int[] targetIndexes(Insert insert, Schema result, Schema target) {
    List<String> columns = insert.columns();
    if (result.getFieldCount() != columns.size()) {
      throw insert
          .query()
          .statement()
          .error(
              "the query gives "
                  + result.getFieldCount()
                  + " columns, but "
                  + insert.describe()
                  + " takes "
                  + columns.size()
                  + " ("
                  + String.join(", ", columns)
                  + ")");
    }
    int[] indexes = new int[columns.size()];
    for (int i = 0; i < indexes.length; i++) {
      indexes[i] = target.indexOf(columns.get(i));
      java.util.Optional<String> problem = SinkRows.mismatch(result, i, target, indexes[i]);
      if (problem.isPresent()) {
        throw insert.query().statement().error(insert.describe() + ": " + problem.get());
      }
    }
    return indexes;
  }
}
