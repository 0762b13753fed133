package dev.filetables.transforms.sink.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.testing.AllTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;

class FileRowCoderTest {
  @Test
  void rowsRoundTripAsRowCoderWouldGiveThem() throws Exception {
    Coder<Row> coder = FileRowCoder.of(AllTypes.SCHEMA);
    assertTrue(coder instanceof FileRowCoder);
    List<Row> rows = new ArrayList<>(AllTypes.specialRows());
    rows.addAll(AllTypes.randomRows(200, 1));
    for (Row row : rows) {
      byte[] bytes = CoderUtils.encodeToByteArray(coder, row);
      Row back = CoderUtils.decodeFromByteArray(coder, bytes);
      assertEquals(row, back);
      assertEquals(
          CoderUtils.decodeFromByteArray(
              RowCoder.of(AllTypes.SCHEMA),
              CoderUtils.encodeToByteArray(RowCoder.of(AllTypes.SCHEMA), row)),
          back);
      assertEquals(Arrays.asList(row.getValues().toArray()), back.getValues());
    }
    coder.verifyDeterministic();
  }

  @Test
  void otherSchemasFallBackToRowCoder() {
    Schema arrays = Schema.builder().addArrayField("a", Schema.FieldType.STRING).build();
    assertTrue(FileRowCoder.of(arrays) instanceof RowCoder);
  }
}
