package dev.filetables.io.format.parquet;

import dev.filetables.io.format.internal.FormatOptions;
import dev.filetables.io.format.internal.NativeCodecs;
import dev.filetables.io.table.TableDefinitionException;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The {@code parquet.*} options of a table (keys given without the prefix). Keys are those of
 * parquet-hadoop's {@code ParquetOutputFormat}, which Flink passes through, so a Flink DDL keeps
 * working; unlike Flink, an unknown key is an error instead of being ignored.
 *
 * <ul>
 *   <li>{@code parquet.compression}: UNCOMPRESSED (or NONE), SNAPPY (default; GZIP where the snappy
 *       native library does not load), GZIP, ZSTD, LZ4_RAW
 *   <li>{@code parquet.compression.codec.zstd.level}: ZSTD level (default 3)
 *   <li>{@code parquet.block.size}: row group size in bytes (default 128 MB)
 *   <li>{@code parquet.page.size}, {@code parquet.dictionary.page.size}: bytes (default 1 MB each)
 *   <li>{@code parquet.page.row.count.limit}: rows per page (default {@value
 *       #DEFAULT_PAGE_ROW_COUNT_LIMIT}, see there)
 *   <li>{@code parquet.enable.dictionary}: true (default) / false
 *   <li>{@code parquet.writer.version}: v1 (default) / v2
 *   <li>{@code parquet.utc-timezone} (Flink's key): how INT96 timestamps of other writers become
 *       TIMESTAMP values: wall clock in UTC (true) or in the JVM's zone (false, Flink's default)
 * </ul>
 *
 * Sizes are plain bytes (as Hadoop takes them) or sizes such as {@code 64 mb}.
 */
@Internal
public final class ParquetOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  static final String COMPRESSION = "compression";
  static final String BLOCK_SIZE = "block.size";
  static final String PAGE_SIZE = "page.size";
  static final String DICTIONARY_PAGE_SIZE = "dictionary.page.size";
  static final String ENABLE_DICTIONARY = "enable.dictionary";
  static final String WRITER_VERSION = "writer.version";
  static final String PAGE_ROW_COUNT_LIMIT = "page.row.count.limit";
  static final String ZSTD_LEVEL = "compression.codec.zstd.level";

  /**
   * Flink's option: whether INT96 timestamps are UTC wall clock (true) or JVM-local (false,
   * default).
   */
  static final String UTC_TIMEZONE = "utc-timezone";

  static final List<String> KEYS =
      List.of(
          COMPRESSION,
          BLOCK_SIZE,
          PAGE_SIZE,
          DICTIONARY_PAGE_SIZE,
          ENABLE_DICTIONARY,
          WRITER_VERSION,
          PAGE_ROW_COUNT_LIMIT,
          ZSTD_LEVEL,
          UTC_TIMEZONE);

  /**
   * FileTables' default page row limit (parquet-mr: 20000). A column chunk decides at the end of
   * its first page whether dictionary encoding pays off; deciding after 2000 rows instead of 20000
   * makes high-cardinality columns of small files (one per partition and writer) about twice as
   * cheap to write, for about 1% more bytes in large files.
   */
  static final int DEFAULT_PAGE_ROW_COUNT_LIMIT = 2000;

  /** Codecs that work with the jars FileTables ships (LZO and BROTLI need extra native codecs). */
  static final List<String> CODECS = List.of("UNCOMPRESSED", "SNAPPY", "GZIP", "ZSTD", "LZ4_RAW");

  /** What {@code parquet.compression} accepts (any case): the codecs and NONE for UNCOMPRESSED. */
  private static final List<String> CODEC_NAMES =
      List.of("UNCOMPRESSED", "NONE", "SNAPPY", "GZIP", "ZSTD", "LZ4_RAW");

  /** Hadoop configuration without default resources: creating it reads no XML. */
  private static final Configuration SHARED_CONF = new Configuration(false);

  private final CompressionCodecName codec;
  private final long rowGroupSize;
  private final int pageSize;
  private final int dictionaryPageSize;
  private final boolean dictionary;
  private final ParquetProperties.WriterVersion writerVersion;
  private final int pageRowCountLimit;
  private final Integer zstdLevel;
  private final boolean utcTimezone;
  private transient Configuration conf;

  private ParquetOptions(Map<String, String> options) {
    FormatOptions o = FormatOptions.of("parquet", options, KEYS);
    this.codec = codec(o);
    this.rowGroupSize = o.bytes(BLOCK_SIZE, ParquetWriter.DEFAULT_BLOCK_SIZE, 1024, Long.MAX_VALUE);
    this.pageSize =
        (int) o.bytes(PAGE_SIZE, ParquetProperties.DEFAULT_PAGE_SIZE, 64, Integer.MAX_VALUE);
    this.dictionaryPageSize =
        (int)
            o.bytes(
                DICTIONARY_PAGE_SIZE,
                ParquetProperties.DEFAULT_DICTIONARY_PAGE_SIZE,
                64,
                Integer.MAX_VALUE);
    this.dictionary = o.bool(ENABLE_DICTIONARY, true);
    this.writerVersion = writerVersion(o);
    this.pageRowCountLimit =
        o.integer(PAGE_ROW_COUNT_LIMIT, DEFAULT_PAGE_ROW_COUNT_LIMIT, 1, Integer.MAX_VALUE);
    this.zstdLevel = o.has(ZSTD_LEVEL) ? o.integer(ZSTD_LEVEL, 0, -131072, 22) : null;
    this.utcTimezone = o.bool(UTC_TIMEZONE, false);
  }

  public static ParquetOptions parse(Map<String, String> options) {
    return new ParquetOptions(options);
  }

  public CompressionCodecName codec() {
    return codec;
  }

  long rowGroupSize() {
    return rowGroupSize;
  }

  int pageSize() {
    return pageSize;
  }

  int dictionaryPageSize() {
    return dictionaryPageSize;
  }

  boolean dictionaryEnabled() {
    return dictionary;
  }

  ParquetProperties.WriterVersion writerVersion() {
    return writerVersion;
  }

  int pageRowCountLimit() {
    return pageRowCountLimit;
  }

  boolean utcTimezone() {
    return utcTimezone;
  }

  /**
   * The Hadoop configuration codecs read: one shared resource-free instance unless an option has to
   * go through it. Never modified after creation, so sharing it between threads is safe.
   */
  Configuration hadoopConf() {
    if (zstdLevel == null) {
      return SHARED_CONF;
    }
    Configuration c = conf;
    if (c == null) {
      c = new Configuration(false);
      c.setInt("parquet." + ZSTD_LEVEL, zstdLevel);
      conf = c;
    }
    return c;
  }

  private static CompressionCodecName codec(FormatOptions o) {
    String name = o.oneOf(COMPRESSION, null, CODEC_NAMES);
    if (name == null) {
      return NativeCodecs.snappyAvailable()
          ? CompressionCodecName.SNAPPY
          : CompressionCodecName.GZIP;
    }
    if (name.equals("NONE")) {
      name = "UNCOMPRESSED";
    }
    if (name.equals("SNAPPY") && !NativeCodecs.snappyAvailable()) {
      throw new TableDefinitionException(
          "'parquet."
              + COMPRESSION
              + "' = 'SNAPPY' needs the snappy-java native library, which does not load"
              + " on this machine; use GZIP, ZSTD or UNCOMPRESSED");
    }
    if (name.equals("ZSTD") && !NativeCodecs.zstdAvailable()) {
      throw new TableDefinitionException(
          "'parquet."
              + COMPRESSION
              + "' = 'ZSTD' needs the zstd-jni native library, which does not load"
              + " on this machine; use GZIP, SNAPPY or UNCOMPRESSED");
    }
    return CompressionCodecName.valueOf(name);
  }

  private static ParquetProperties.WriterVersion writerVersion(FormatOptions o) {
    String value = o.string(WRITER_VERSION, null);
    if (value == null) {
      return ParquetProperties.WriterVersion.PARQUET_1_0;
    }
    try {
      return ParquetProperties.WriterVersion.fromString(value.trim());
    } catch (IllegalArgumentException e) {
      throw o.fail(WRITER_VERSION, value, "one of v1, v2, PARQUET_1_0, PARQUET_2_0");
    }
  }
}
