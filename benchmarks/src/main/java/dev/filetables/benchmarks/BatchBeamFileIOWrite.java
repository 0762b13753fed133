package dev.filetables.benchmarks;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.FileIO;
import org.apache.beam.sdk.io.WriteFilesResult;
import org.apache.beam.sdk.io.parquet.ParquetIO;
import org.apache.beam.sdk.transforms.Contextful;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * The baseline the benchmark compares against: how a Beam user writes the same partitioned Parquet
 * table without FileTables — {@code FileIO.writeDynamic().by(partition).via(rowToGenericRecord,
 * ParquetIO.sink(avroSchema))}, SNAPPY like FileTables' default, runner-determined sharding, the
 * partition columns only in the directory names ({@code dt=.../hour=.../part-...parquet}).
 *
 * <p>The Row → GenericRecord conversion is written by hand for the orders schema (a user would do
 * the same or call {@code AvroUtils}); it is cheap next to Avro's and Parquet's own work.
 */
final class BatchBeamFileIOWrite extends PTransform<PCollection<Row>, WriteFilesResult<String>> {
  private static final long serialVersionUID = 1L;

  /** The orders' stored columns (all but dt and hour) as Avro. */
  static final String AVRO_SCHEMA = avroSchema().toString();

  private final String directory;

  BatchBeamFileIOWrite(String directory) {
    this.directory = directory;
  }

  @Override
  public WriteFilesResult<String> expand(PCollection<Row> rows) {
    Schema schema = new Schema.Parser().parse(AVRO_SCHEMA);
    return rows.apply(
        FileIO.<String, Row>writeDynamic()
            .by(new PartitionOf())
            .withDestinationCoder(StringUtf8Coder.of())
            .via(Contextful.fn(new ToRecord()), ParquetIO.sink(schema))
            .to(directory)
            .withNaming(partition -> FileIO.Write.defaultNaming(partition + "/part", ".parquet")));
  }

  private static Schema avroSchema() {
    Schema decimal = LogicalTypes.decimal(10, 2).addToSchema(Schema.create(Schema.Type.BYTES));
    Schema millis = LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
    return SchemaBuilder.record("order")
        .namespace("dev.filetables.bench")
        .fields()
        .requiredLong("order_id")
        .optionalLong("customer_id")
        .optionalString("product")
        .optionalString("category")
        .optionalInt("quantity")
        .name("unit_price")
        .type()
        .unionOf()
        .nullType()
        .and()
        .type(decimal)
        .endUnion()
        .nullDefault()
        .optionalString("currency")
        .optionalString("country")
        .optionalString("status")
        .name("order_ts")
        .type()
        .unionOf()
        .nullType()
        .and()
        .type(millis)
        .endUnion()
        .nullDefault()
        .endRecord();
  }

  /** Hive-style partition directory of a row: {@code dt=2020-05-20/hour=07}. */
  private static final class PartitionOf implements SerializableFunction<Row, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String apply(Row row) {
      return "dt=" + row.getString("dt") + "/hour=" + row.getString("hour");
    }
  }

  /** An order row as a GenericRecord of {@link #AVRO_SCHEMA}. */
  private static final class ToRecord implements SerializableFunction<Row, GenericRecord> {
    private static final long serialVersionUID = 1L;
    private static final List<String> PLAIN =
        List.of(
            "order_id",
            "customer_id",
            "product",
            "category",
            "quantity",
            "currency",
            "country",
            "status");
    private transient Schema schema;

    @Override
    public GenericRecord apply(Row row) {
      if (schema == null) {
        schema = new Schema.Parser().parse(AVRO_SCHEMA);
      }
      GenericData.Record record = new GenericData.Record(schema);
      for (String name : PLAIN) {
        record.put(name, row.getValue(name));
      }
      BigDecimal price = row.getValue("unit_price");
      record.put(
          "unit_price",
          price == null ? null : ByteBuffer.wrap(price.unscaledValue().toByteArray()));
      LocalDateTime ts = row.getValue("order_ts");
      record.put("order_ts", ts == null ? null : ts.toInstant(ZoneOffset.UTC).toEpochMilli());
      return record;
    }
  }
}
