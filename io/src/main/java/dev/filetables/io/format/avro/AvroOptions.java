package dev.filetables.io.format.avro;

import dev.filetables.io.format.internal.FormatOptions;
import dev.filetables.io.format.internal.NativeCodecs;
import dev.filetables.io.table.TableDefinitionException;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileConstants;
import org.apache.beam.sdk.annotations.Internal;

/**
 * The {@code avro.*} options of a table (keys given without the prefix).
 *
 * <ul>
 *   <li>{@code avro.codec} (Flink's key): null, deflate, snappy, bzip2, xz, zstandard; default
 *       snappy (deflate where the snappy native library does not load).
 *   <li>{@code avro.sync-interval} (FileTables): uncompressed bytes per block, default 64000.
 * </ul>
 */
@Internal
public final class AvroOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  static final String CODEC = "codec";
  static final String SYNC_INTERVAL = "sync-interval";
  static final List<String> KEYS = List.of(CODEC, SYNC_INTERVAL);
  public static final List<String> CODECS =
      List.of("null", "deflate", "snappy", "bzip2", "xz", "zstandard");

  private final String codec;
  private final int syncInterval;

  private AvroOptions(Map<String, String> options) {
    FormatOptions o = FormatOptions.of("avro", options, KEYS);
    this.codec = codec(o);
    this.syncInterval =
        (int) o.bytes(SYNC_INTERVAL, DataFileConstants.DEFAULT_SYNC_INTERVAL, 32, 1 << 30);
  }

  public static AvroOptions parse(Map<String, String> options) {
    return new AvroOptions(options);
  }

  /** The codec name as Avro spells it. */
  String codecName() {
    return codec;
  }

  CodecFactory codecFactory() {
    return CodecFactory.fromString(codec);
  }

  int syncInterval() {
    return syncInterval;
  }

  private static String codec(FormatOptions o) {
    String name = o.oneOf(CODEC, null, CODECS);
    if (name == null) {
      return NativeCodecs.snappyAvailable() ? "snappy" : "deflate";
    }
    String missing = null;
    if (name.equals("snappy") && !NativeCodecs.snappyAvailable()) {
      missing = "the snappy-java native library, which does not load on this machine";
    } else if (name.equals("zstandard") && !NativeCodecs.zstdAvailable()) {
      missing = "the zstd-jni native library, which does not load on this machine";
    } else if (name.equals("xz") && !NativeCodecs.classAvailable("org.tukaani.xz.XZOutputStream")) {
      missing = "org.tukaani:xz on the classpath";
    } else if (name.equals("bzip2")
        && !NativeCodecs.classAvailable(
            "org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream")) {
      missing = "org.apache.commons:commons-compress on the classpath";
    }
    if (missing != null) {
      throw new TableDefinitionException(
          "'avro."
              + CODEC
              + "' = '"
              + name
              + "' needs "
              + missing
              + "; use deflate or null instead");
    }
    return name;
  }
}
