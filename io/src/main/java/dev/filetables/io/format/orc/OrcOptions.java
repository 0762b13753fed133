package dev.filetables.io.format.orc;

import dev.filetables.io.format.internal.FormatOptions;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.orc.OrcFile;

/**
 * The {@code orc.*} options of a table (keys given without the prefix): the writer properties of
 * orc-core's {@code OrcConf} that Flink's orc format passes through to its writer, with orc-core's
 * defaults, as in Flink. Unlike Flink, an unknown key or a value orc-core would not take is an
 * error naming the key, instead of being ignored or failing at the first write.
 *
 * <ul>
 *   <li>{@code orc.compress}: NONE, ZLIB (default), SNAPPY, LZO, LZ4, ZSTD (all pure Java in
 *       orc-core, no native library needed)
 *   <li>{@code orc.compress.size}: bytes per compression chunk (default 256 KB)
 *   <li>{@code orc.stripe.size}: bytes of a stripe in memory before it is written (default 64 MB);
 *       {@code orc.stripe.row.count}: most rows in a stripe (default no limit)
 *   <li>{@code orc.block.size}, {@code orc.block.padding}, {@code orc.padding.tolerance}: HDFS
 *       block alignment of stripes (defaults 256 MB, true, 0.05)
 *   <li>{@code orc.row.index.stride} (rows per index entry, default 10000; 0 = no index), {@code
 *       orc.create.index} (default true)
 *   <li>{@code orc.bloom.filter.columns} (comma-separated), {@code orc.bloom.filter.fpp} (default
 *       0.01)
 *   <li>{@code orc.dictionary.key.threshold} (default 0.8), {@code orc.column.encoding.direct}
 *   <li>{@code orc.encoding.strategy}, {@code orc.compression.strategy}: SPEED (default) or
 *       COMPRESSION
 *   <li>{@code orc.write.format}: 0.12 (default) or 0.11
 *   <li>{@code orc.rows.between.memory.checks}: rows between two checks whether a stripe is full (1
 *       to 10000, default 5000)
 * </ul>
 *
 * Sizes are plain bytes (as Hadoop takes them) or sizes such as {@code 64 mb}.
 */
@Internal
public final class OrcOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  static final String COMPRESS = "compress";
  static final String COMPRESS_SIZE = "compress.size";
  static final String STRIPE_SIZE = "stripe.size";
  static final String STRIPE_ROW_COUNT = "stripe.row.count";
  static final String BLOCK_SIZE = "block.size";
  static final String BLOCK_PADDING = "block.padding";
  static final String PADDING_TOLERANCE = "padding.tolerance";
  static final String ROW_INDEX_STRIDE = "row.index.stride";
  static final String CREATE_INDEX = "create.index";
  static final String BLOOM_FILTER_COLUMNS = "bloom.filter.columns";
  static final String BLOOM_FILTER_FPP = "bloom.filter.fpp";
  static final String DICTIONARY_KEY_THRESHOLD = "dictionary.key.threshold";
  static final String DIRECT_ENCODING_COLUMNS = "column.encoding.direct";
  static final String ENCODING_STRATEGY = "encoding.strategy";
  static final String COMPRESSION_STRATEGY = "compression.strategy";
  static final String WRITE_FORMAT = "write.format";
  static final String ROWS_BETWEEN_MEMORY_CHECKS = "rows.between.memory.checks";

  static final List<String> KEYS =
      List.of(
          COMPRESS,
          COMPRESS_SIZE,
          STRIPE_SIZE,
          STRIPE_ROW_COUNT,
          BLOCK_SIZE,
          BLOCK_PADDING,
          PADDING_TOLERANCE,
          ROW_INDEX_STRIDE,
          CREATE_INDEX,
          BLOOM_FILTER_COLUMNS,
          BLOOM_FILTER_FPP,
          DICTIONARY_KEY_THRESHOLD,
          DIRECT_ENCODING_COLUMNS,
          ENCODING_STRATEGY,
          COMPRESSION_STRATEGY,
          WRITE_FORMAT,
          ROWS_BETWEEN_MEMORY_CHECKS);

  /** What {@code orc.compress} accepts (any case), orc-core's {@code CompressionKind}s. */
  static final List<String> CODECS = List.of("NONE", "ZLIB", "SNAPPY", "LZO", "LZ4", "ZSTD");

  /** The smallest row index stride orc-core accepts (other than 0, no index). */
  private static final int MIN_ROW_INDEX_STRIDE = 1000;

  /** Largest compression chunk: its length must fit the 23 bits of a chunk header. */
  private static final long MAX_COMPRESS_SIZE = (1 << 23) - 1;

  /** Hadoop configuration without default resources: creating it reads no XML. */
  private static final Configuration SHARED_CONF = new Configuration(false);

  /** orc-core's default of {@code orc.rows.between.memory.checks}. */
  private static final int DEFAULT_ROWS_BETWEEN_MEMORY_CHECKS = 5000;

  private final int rowsBetweenMemoryChecks;

  /** The given options as orc-core reads them: full {@code orc.*} keys, checked values. */
  private final LinkedHashMap<String, String> properties = new LinkedHashMap<>();

  private transient Configuration givenConf;

  private OrcOptions(Map<String, String> options) {
    FormatOptions o = FormatOptions.of("orc", options, KEYS);
    put(o, COMPRESS, o.oneOf(COMPRESS, null, CODECS));
    putBytes(o, COMPRESS_SIZE, 1024, MAX_COMPRESS_SIZE);
    putBytes(o, STRIPE_SIZE, 1024, Long.MAX_VALUE);
    if (o.has(STRIPE_ROW_COUNT)) {
      put(
          o,
          STRIPE_ROW_COUNT,
          Integer.toString(o.integer(STRIPE_ROW_COUNT, 0, 1, Integer.MAX_VALUE)));
    }
    putBytes(o, BLOCK_SIZE, 1024, Long.MAX_VALUE);
    if (o.has(BLOCK_PADDING)) {
      put(o, BLOCK_PADDING, Boolean.toString(o.bool(BLOCK_PADDING, true)));
    }
    if (o.has(PADDING_TOLERANCE)) {
      put(o, PADDING_TOLERANCE, Double.toString(o.number(PADDING_TOLERANCE, 0, 0, 1)));
    }
    if (o.has(ROW_INDEX_STRIDE)) {
      int stride = o.integer(ROW_INDEX_STRIDE, 0, 0, Integer.MAX_VALUE);
      if (stride != 0 && stride < MIN_ROW_INDEX_STRIDE) {
        throw o.fail(
            ROW_INDEX_STRIDE,
            options.get(ROW_INDEX_STRIDE),
            "0 (no row index) or at least " + MIN_ROW_INDEX_STRIDE);
      }
      put(o, ROW_INDEX_STRIDE, Integer.toString(stride));
    }
    if (o.has(CREATE_INDEX)) {
      put(o, CREATE_INDEX, Boolean.toString(o.bool(CREATE_INDEX, true)));
    }
    put(o, BLOOM_FILTER_COLUMNS, o.string(BLOOM_FILTER_COLUMNS, null));
    if (o.has(BLOOM_FILTER_FPP)) {
      double fpp = o.number(BLOOM_FILTER_FPP, 0, 0, 1);
      if (fpp <= 0 || fpp >= 1) {
        throw o.fail(
            BLOOM_FILTER_FPP, options.get(BLOOM_FILTER_FPP), "a number between 0 and 1, exclusive");
      }
      put(o, BLOOM_FILTER_FPP, Double.toString(fpp));
    }
    if (o.has(DICTIONARY_KEY_THRESHOLD)) {
      put(
          o,
          DICTIONARY_KEY_THRESHOLD,
          Double.toString(o.number(DICTIONARY_KEY_THRESHOLD, 0, 0, 1)));
    }
    put(o, DIRECT_ENCODING_COLUMNS, o.string(DIRECT_ENCODING_COLUMNS, null));
    put(o, ENCODING_STRATEGY, o.oneOf(ENCODING_STRATEGY, null, "SPEED", "COMPRESSION"));
    put(o, COMPRESSION_STRATEGY, o.oneOf(COMPRESSION_STRATEGY, null, "SPEED", "COMPRESSION"));
    put(o, WRITE_FORMAT, o.oneOf(WRITE_FORMAT, null, "0.12", "0.11"));
    this.rowsBetweenMemoryChecks =
        o.integer(ROWS_BETWEEN_MEMORY_CHECKS, DEFAULT_ROWS_BETWEEN_MEMORY_CHECKS, 1, 10_000);
    if (o.has(ROWS_BETWEEN_MEMORY_CHECKS)) {
      put(o, ROWS_BETWEEN_MEMORY_CHECKS, Integer.toString(rowsBetweenMemoryChecks));
    }
  }

  /**
   * How many rows orc-core adds between two looks at a stripe's size: the writer hands rows over in
   * batches of at most this many, so that a stripe can end after any such batch.
   */
  int rowsBetweenMemoryChecks() {
    return rowsBetweenMemoryChecks;
  }

  public static OrcOptions parse(Map<String, String> options) {
    return new OrcOptions(options);
  }

  private void put(FormatOptions o, String key, String value) {
    if (value != null) {
      properties.put(o.fullKey(key), value);
    }
  }

  private void putBytes(FormatOptions o, String key, long min, long max) {
    if (o.has(key)) {
      put(o, key, Long.toString(o.bytes(key, 0, min, max)));
    }
  }

  /**
   * orc-core's writer options for these table options: orc-core's defaults for every key not given,
   * as Flink's {@code OrcBulkWriterFactory} builds them from the table's properties. The keys are
   * in the configuration too, for the settings orc-core reads only from there ({@code
   * orc.rows.between.memory.checks}).
   */
  OrcFile.WriterOptions writerOptions() {
    Properties table = new Properties();
    table.putAll(properties);
    return OrcFile.writerOptions(table, writerConf());
  }

  /**
   * The shared resource-free configuration, or one holding the given keys. Never modified after
   * creation, so sharing it between threads is safe.
   */
  private Configuration writerConf() {
    if (properties.isEmpty()) {
      return SHARED_CONF;
    }
    Configuration c = givenConf;
    if (c == null) {
      c = new Configuration(false);
      properties.forEach(c::set);
      givenConf = c;
    }
    return c;
  }

  /** The configuration readers and merges use: no resources, never modified, safe to share. */
  static Configuration conf() {
    return SHARED_CONF;
  }
}
