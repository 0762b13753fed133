package dev.filetables.io.format.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.ColumnType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.Random;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;

class ParquetRowWriterTest {
  private static final Schema SCHEMA =
      Schema.builder()
          .addField("id", ColumnType.BIGINT.fieldType())
          .addNullableField("name", ColumnType.STRING.fieldType())
          .build();

  @Test
  void estimatedSizeIsMeasuredOftenAndNeverRunsAheadOfAMeasurementByMoreThanOnePercent()
      throws IOException {
    Random random = new Random(7);
    try (ParquetRowWriter writer =
        new ParquetRowWriter(new ByteArrayOutputStream(), SCHEMA, ParquetOptions.parse(Map.of()))) {
      long largestMeasured = 0;
      int lastExact = 0;
      for (int i = 1; i <= 50_000; i++) {
        writer.write(
            Row.withSchema(SCHEMA)
                .addValues(random.nextLong(), "name " + random.nextInt(1000))
                .build());
        long estimate = writer.estimatedSize();
        long measured = writer.measuredSize();
        largestMeasured = Math.max(largestMeasured, measured);
        if (i <= 100) {
          assertEquals(measured, estimate, "row " + i);
        }
        if (estimate == measured) {
          lastExact = i;
        }
        // Parquet's own figure dips when a page is compressed; in between measurements the estimate
        // extrapolates from the last one
        assertTrue(i - lastExact <= ParquetRowWriter.MAX_ROWS_BETWEEN_SIZE_CHECKS, "row " + i);
        assertTrue(
            estimate <= largestMeasured + largestMeasured / 100 + 64,
            "row " + i + ": estimate " + estimate + ", largest measured " + largestMeasured);
      }
    }
  }
}
