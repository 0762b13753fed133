package dev.filetables.transforms.sink.streaming;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.filetables.io.table.ColumnType;
import dev.filetables.transforms.sink.segment.FileRowCoder;
import dev.filetables.transforms.sink.segment.SegmentKind;
import dev.filetables.transforms.sink.segment.SegmentWriter;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RowBatchTest {
  private static final Schema SCHEMA =
      Schema.builder()
          .addNullableField("s", ColumnType.STRING.fieldType())
          .addField("l", ColumnType.BIGINT.fieldType())
          .build();
  private static final Coder<Row> ROWS = FileRowCoder.of(SCHEMA);

  @TempDir Path dir;

  private static RowBatch batch(List<Row> rows, long... timestamps) throws Exception {
    RowBatch.Builder builder = new RowBatch.Builder();
    RowBatch.Bytes scratch = new RowBatch.Bytes();
    for (int i = 0; i < rows.size(); i++) {
      scratch.reset();
      ROWS.encode(rows.get(i), scratch);
      builder.add(scratch, timestamps[i]);
    }
    return builder.build();
  }

  private static List<Row> rows(int n) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(
          Row.withSchema(SCHEMA)
              .addValues(i % 3 == 0 ? null : "v" + i, (long) i * 1_000_003)
              .build());
    }
    return rows;
  }

  @Test
  void roundTripKeepsRowsAndTheirTimestamps() throws Exception {
    List<Row> rows = rows(5);
    long[] timestamps = {50, -7, Long.MAX_VALUE / 2, 0, 49};
    RowBatch back =
        CoderUtils.decodeFromByteArray(
            RowBatch.BatchCoder.of(),
            CoderUtils.encodeToByteArray(RowBatch.BatchCoder.of(), batch(rows, timestamps)));
    assertEquals(5, back.size());
    assertEquals(-7, back.minTimestamp());
    assertEquals(Long.MAX_VALUE / 2, back.maxTimestamp());
    RowBatch.Rows read = back.rows(ROWS);
    for (int i = 0; i < rows.size(); i++) {
      assertEquals(timestamps[i], back.timestamp(i));
      assertEquals(rows.get(i), read.next());
    }
  }

  @Test
  void encodedRowsAreTheSpillSegmentLayout() throws Exception {
    List<Row> rows = rows(4);
    ByteArrayOutputStream spill = new ByteArrayOutputStream();
    for (Row row : rows) {
      ROWS.encode(row, spill);
    }
    assertArrayEquals(spill.toByteArray(), batch(rows, 1, 2, 3, 4).encoded());

    // a batch appended to a spill segment as it is reads back like rows written one by one
    SegmentWriter segment =
        SegmentWriter.open(SegmentKind.SPILL, null, SCHEMA, dir, ".seg-0.inprogress");
    segment.writeEncoded(batch(rows.subList(0, 2), 1, 2).encoded());
    segment.write(rows.get(2));
    segment.writeEncoded(batch(rows.subList(3, 4), 4).encoded());
    segment.close();
    assertArrayEquals(spill.toByteArray(), Files.readAllBytes(dir.resolve(".seg-0.inprogress")));
  }

  @Test
  void builderStartsOverAfterBuild() throws Exception {
    RowBatch.Builder builder = new RowBatch.Builder();
    RowBatch.Bytes scratch = new RowBatch.Bytes();
    for (int i = 0; i < 40; i++) { // past the initial timestamp capacity
      scratch.reset();
      ROWS.encode(rows(1).get(0), scratch);
      builder.add(scratch, i);
    }
    assertEquals(40, builder.build().size());
    assertEquals(0, builder.size());
    assertEquals(0, builder.bytes());
    assertThrows(IllegalArgumentException.class, builder::build, "no empty batches");
  }

  @Test
  void corruptBatchesAreRejected() {
    assertThrows(
        CoderException.class,
        () -> CoderUtils.decodeFromByteArray(RowBatch.BatchCoder.of(), new byte[] {0}));
    assertThrows(
        CoderException.class,
        () -> CoderUtils.decodeFromByteArray(RowBatch.BatchCoder.of(), new byte[] {1, 0, 0, 5, 1}));
  }
}
