package dev.filetables.pipelines;

import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * Matches a sink's physical columns to a source's columns by name, for {@code run}: each sink
 * column takes the source column of the same name (metadata columns included, so a sink can store
 * {@code file.path}). Types must be the same; a DECIMAL may widen. Source columns the sink does not
 * declare are left out — the sink DDL is the projection.
 */
final class ColumnMatch extends PTransform<PCollection<Row>, PCollection<Row>> {
  private static final long serialVersionUID = 1L;

  /** Source index of a sink partition column that the sink derives from its time column. */
  private static final int DERIVED = -1;

  private final Schema sinkSchema;
  private final int[] sourceIndexes;
  private final List<String> dropped;

  private ColumnMatch(Schema sinkSchema, int[] sourceIndexes, List<String> dropped) {
    this.sinkSchema = sinkSchema;
    this.sourceIndexes = sourceIndexes;
    this.dropped = dropped;
  }

  /** Matches columns, or fails naming the sink column that has no usable source column. */
  static ColumnMatch between(TableSpec source, TableSpec sink) {
    return between(source.name(), source.schema(), sink);
  }

  /**
   * Matches a sink to source columns {@code from}. A partition column the sink derives itself
   * ({@code sink.partition-derive.time-column}) may be missing from the source: it starts null.
   */
  static ColumnMatch between(String sourceName, Schema from, TableSpec sink) {
    Schema to = sink.physicalSchema();
    boolean derivesPartitions = sink.options().partitionDeriveTimeColumn().isPresent();
    int[] indexes = new int[to.getFieldCount()];
    for (int i = 0; i < to.getFieldCount(); i++) {
      Schema.Field target = to.getField(i);
      String name = target.getName();
      if (!from.hasField(name) && derivesPartitions && sink.partitionKeys().contains(name)) {
        indexes[i] = DERIVED;
        continue;
      }
      if (!from.hasField(name)) {
        throw new CliException(
            "sink column `"
                + name
                + "` is not a column of the source table `"
                + sourceName
                + "`; source columns: "
                + String.join(", ", from.getFieldNames()));
      }
      Schema.Field origin = from.getField(name);
      checkCompatible(name, origin.getType(), target.getType());
      indexes[i] = from.indexOf(name);
    }
    List<String> dropped = new ArrayList<>();
    for (String name : from.getFieldNames()) {
      if (!to.hasField(name)) {
        dropped.add(name);
      }
    }
    return new ColumnMatch(to, indexes, List.copyOf(dropped));
  }

  /** Source columns the sink does not declare. */
  List<String> dropped() {
    return dropped;
  }

  private static void checkCompatible(String name, Schema.FieldType from, Schema.FieldType to) {
    ColumnType fromType = ColumnType.of(from);
    ColumnType toType = ColumnType.of(to);
    if (fromType != toType) {
      throw new CliException(
          "column `"
              + name
              + "` is "
              + fromType
              + " in the source but "
              + toType
              + " in the sink; declare the same type");
    }
    if (fromType == ColumnType.DECIMAL) {
      int fromScale = ColumnType.decimalScale(from);
      int toScale = ColumnType.decimalScale(to);
      int fromIntegerDigits = ColumnType.decimalPrecision(from) - fromScale;
      int toIntegerDigits = ColumnType.decimalPrecision(to) - toScale;
      if (toScale < fromScale || toIntegerDigits < fromIntegerDigits) {
        throw new CliException(
            "column `"
                + name
                + "` is DECIMAL("
                + ColumnType.decimalPrecision(from)
                + ","
                + fromScale
                + ") in the source but DECIMAL("
                + ColumnType.decimalPrecision(to)
                + ","
                + toScale
                + ") in the sink, which cannot hold every value; widen the sink type");
      }
    }
  }

  @Override
  public PCollection<Row> expand(PCollection<Row> input) {
    return input.apply(ParDo.of(new MatchFn(sinkSchema, sourceIndexes))).setRowSchema(sinkSchema);
  }

  private static final class MatchFn extends DoFn<Row, Row> {
    private static final long serialVersionUID = 1L;
    private final Schema sinkSchema;
    private final int[] sourceIndexes;

    MatchFn(Schema sinkSchema, int[] sourceIndexes) {
      this.sinkSchema = sinkSchema;
      this.sourceIndexes = sourceIndexes;
    }

    @ProcessElement
    public void process(@Element Row row, OutputReceiver<Row> out) {
      List<Object> values = new ArrayList<>(sourceIndexes.length);
      for (int i = 0; i < sourceIndexes.length; i++) {
        Object value = sourceIndexes[i] == DERIVED ? null : row.getValue(sourceIndexes[i]);
        Schema.Field field = sinkSchema.getField(i);
        if (value == null && !field.getType().getNullable() && sourceIndexes[i] != DERIVED) {
          throw new IllegalArgumentException(
              "column `"
                  + field.getName()
                  + "` is NOT NULL in the sink but a source row has NULL: "
                  + row);
        }
        if (value instanceof BigDecimal) {
          // widening only (checked up front), so the new scale never rounds
          value = ((BigDecimal) value).setScale(ColumnType.decimalScale(field.getType()));
        }
        values.add(value);
      }
      // attachValues: a derived partition column is null until the sink derives it, even if NOT
      // NULL
      out.output(Row.withSchema(sinkSchema).attachValues(values));
    }
  }
}
