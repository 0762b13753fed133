package dev.filetables.pipelines;

import dev.filetables.io.table.BadRecordPolicy;
import dev.filetables.io.table.TableSpec;
import dev.filetables.transforms.source.DeadLetterTable;
import dev.filetables.transforms.source.FileRangeReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;

/**
 * After a read, tells the user what the source table's bad-record policy did: how many bad records
 * and files were skipped or dead-lettered, how many files vanished, and how to query the dead
 * letters (the DDL is written next to them as {@code _dead_letters.sql}, which readers skip).
 */
final class BadDataSummary {
  static final String DDL_FILE = "_dead_letters.sql";

  private BadDataSummary() {}

  static void report(PipelineResult result, TableSpec source, CliContext context) {
    long records = counter(result, FileRangeReader.BAD_RECORDS);
    long files = counter(result, FileRangeReader.BAD_FILES);
    long vanished = counter(result, FileRangeReader.VANISHED_FILES);
    if (vanished > 0) {
      context.note(
          Human.count(vanished, "file")
              + " of "
              + source.name()
              + " disappeared between listing and reading and were not read");
    }
    if (records == 0 && files == 0) {
      return;
    }
    String what =
        (records > 0 ? Human.count(records, "bad record") : "")
            + (records > 0 && files > 0 ? " and " : "")
            + (files > 0
                ? Human.count(files)
                    + (files == 1 ? " unreadable file or range" : " unreadable files or ranges")
                : "");
    BadRecordPolicy policy = source.options().badRecordPolicy();
    if (policy != BadRecordPolicy.DEAD_LETTER) {
      context.note(
          "skipped "
              + what
              + " of "
              + source.name()
              + " ('source.bad-records' = '"
              + policy.optionValue()
              + "'; the log names them)");
      return;
    }
    Path root = source.options().deadLetterPath().orElseThrow().toAbsolutePath().normalize();
    Path ddl = root.resolve(DDL_FILE);
    try {
      Files.createDirectories(root);
      Files.writeString(ddl, DeadLetterTable.ddl(source));
    } catch (IOException e) {
      context.note("could not write " + ddl + ": " + e.getMessage());
    }
    context.note(
        "wrote "
            + what
            + " of "
            + source.name()
            + " to the dead-letter table "
            + root
            + "; query it with: bin/filetables query "
            + ddl);
  }

  private static long counter(PipelineResult result, String name) {
    long total = 0;
    try {
      for (MetricResult<Long> c :
          result
              .metrics()
              .queryMetrics(
                  MetricsFilter.builder()
                      .addNameFilter(MetricNameFilter.named(FileRangeReader.NAMESPACE, name))
                      .build())
              .getCounters()) {
        Long committed = null;
        try {
          committed = c.getCommitted();
        } catch (UnsupportedOperationException notSupported) {
          // some runners report attempted values only
        }
        total += committed != null ? committed : c.getAttempted();
      }
    } catch (UnsupportedOperationException noMetrics) {
      return 0;
    }
    return total;
  }
}
