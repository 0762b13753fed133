package dev.filetables.io.format;

import dev.filetables.io.table.ColumnType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.channels.SeekableByteChannel;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.apache.commons.compress.utils.SeekableInMemoryByteChannel;

/**
 * Throughput sanity run of the bulk formats (not a test): an orders table written round-robin into
 * 48 "partition" files in memory, then read back. Run from the io module with the test classpath:
 * {@code java -cp ... dev.filetables.io.format.BulkFormatThroughput [rows] [partitions]
 * [format...]}.
 */
public final class BulkFormatThroughput {
  static final Schema ORDERS =
      Schema.builder()
          .addField("order_id", ColumnType.BIGINT.fieldType())
          .addNullableField("customer_id", ColumnType.BIGINT.fieldType())
          .addNullableField("status", ColumnType.STRING.fieldType())
          .addNullableField("amount", ColumnType.decimal(10, 2))
          .addNullableField("quantity", ColumnType.INT.fieldType())
          .addNullableField("price", ColumnType.DOUBLE.fieldType())
          .addNullableField("order_ts", ColumnType.TIMESTAMP.fieldType())
          .addNullableField("order_date", ColumnType.DATE.fieldType())
          .addNullableField("comment", ColumnType.STRING.fieldType())
          .addNullableField("region", ColumnType.STRING.fieldType())
          .build();

  private static final String[] STATUS = {"NEW", "PAID", "SHIPPED", "DELIVERED", "CANCELLED"};
  private static final String[] REGION = {
    "eu-west", "eu-central", "us-east", "us-west", "ap-south"
  };

  static List<Row> orders(int n, long seed) {
    Random random = new Random(seed);
    LocalDateTime base = LocalDateTime.of(2024, 1, 1, 0, 0);
    List<Row> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      LocalDateTime ts =
          base.plusSeconds(random.nextInt(86_400 * 365))
              .plusNanos(random.nextInt(1000) * 1_000_000L);
      rows.add(
          Row.withSchema(ORDERS)
              .addValues(
                  (long) i,
                  (long) random.nextInt(1_000_000),
                  STATUS[random.nextInt(STATUS.length)],
                  BigDecimal.valueOf(random.nextInt(10_000_000), 2),
                  1 + random.nextInt(20),
                  random.nextDouble() * 1000,
                  ts,
                  ts.toLocalDate(),
                  random.nextInt(4) == 0
                      ? null
                      : "order comment " + Long.toHexString(random.nextLong()),
                  REGION[random.nextInt(REGION.length)])
              .build());
    }
    return rows;
  }

  public static void main(String[] args) throws IOException {
    int total = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
    int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 48;
    List<String> formats =
        args.length > 2 ? List.of(args).subList(2, args.length) : List.of("parquet", "avro");
    java.lang.management.ThreadMXBean cpu =
        java.lang.management.ManagementFactory.getThreadMXBean();
    List<Row> pool = orders(Math.min(total, 200_000), 1);
    for (String spec : formats) {
      // "parquet" or "parquet:enable.dictionary=false,compression=ZSTD"
      String name = spec.contains(":") ? spec.substring(0, spec.indexOf(':')) : spec;
      Map<String, String> options = new java.util.HashMap<>();
      if (spec.contains(":")) {
        for (String kv : spec.substring(spec.indexOf(':') + 1).split(",")) {
          options.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }
      }
      FileFormat format = FileFormats.forName(name, options);
      for (int round = 0; round < 3; round++) { // the first rounds warm the JIT up
        ByteArrayOutputStream[] outs = new ByteArrayOutputStream[partitions];
        RowWriter[] writers = new RowWriter[partitions];
        long c0 = cpu.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (int p = 0; p < partitions; p++) {
          outs[p] = new ByteArrayOutputStream(1 << 20);
          writers[p] = format.createWriter(outs[p], ORDERS);
        }
        for (int i = 0; i < total; i++) {
          writers[(i * 31 + (i >>> 7)) % partitions].write(pool.get(i % pool.size()));
        }
        long bytes = 0;
        for (int p = 0; p < partitions; p++) {
          writers[p].close();
          bytes += outs[p].size();
        }
        long t1 = System.nanoTime();
        long c1 = cpu.getCurrentThreadCpuTime();
        long read = 0;
        for (int p = 0; p < partitions; p++) {
          byte[] file = outs[p].toByteArray();
          try (SeekableByteChannel channel = new SeekableInMemoryByteChannel(file);
              RowReader reader =
                  format.createReader(channel, file.length, ByteRange.of(0, file.length), ORDERS)) {
            while (reader.next() != null) {
              read++;
            }
          }
        }
        long t2 = System.nanoTime();
        long c2 = cpu.getCurrentThreadCpuTime();
        if (read != total) {
          throw new AssertionError("read " + read + " of " + total);
        }
        System.out.printf(
            "%-8s round %d: write %,10.0f rows/s  read %,10.0f rows/s  overall %,10.0f rows/s"
                + "  | per CPU-second: write %,10.0f  read %,10.0f  overall %,10.0f  (%,d bytes)%n",
            spec,
            round,
            total / ((t1 - t0) / 1e9),
            total / ((t2 - t1) / 1e9),
            total / ((t2 - t0) / 1e9),
            total / ((c1 - c0) / 1e9),
            total / ((c2 - c1) / 1e9),
            total / ((c2 - c0) / 1e9),
            bytes);
      }
    }
  }
}
