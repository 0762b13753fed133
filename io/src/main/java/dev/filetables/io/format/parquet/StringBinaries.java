package dev.filetables.io.format.parquet;

import java.nio.charset.StandardCharsets;
import org.apache.parquet.io.api.Binary;

/**
 * The UTF-8 {@link Binary} of the strings of one column, remembering those of recently seen
 * strings.
 *
 * <p>Most string columns repeat a few values (country, status, product): encoding each value anew
 * costs an encoding pass and two allocations per row. A small direct-mapped cache keyed by the
 * string's (cached) hash code returns the same immutable Binary instead. A column whose values
 * rarely repeat stops using the cache after a trial, so unique strings pay only the plain encoding.
 */
final class StringBinaries {
  private static final int SLOTS = 256; // a power of two
  private static final int TRIAL = 4096;

  private final String[] keys = new String[SLOTS];
  private final Binary[] values = new Binary[SLOTS];
  private int misses;
  private int hits;
  private boolean caching = true;

  Binary of(String value) {
    if (!caching) {
      return encode(value);
    }
    int slot = value.hashCode() & (SLOTS - 1);
    String key = keys[slot];
    if (key == value || value.equals(key)) {
      hits++;
      return values[slot];
    }
    Binary binary = encode(value);
    keys[slot] = value;
    values[slot] = binary;
    if (++misses == TRIAL) {
      caching = hits >= TRIAL; // keep caching only where at least half of the lookups hit
    }
    return binary;
  }

  private static Binary encode(String value) {
    // a byte-array Binary hashes and compares faster in dictionaries than fromString's ByteBuffer
    // one
    return Binary.fromConstantByteArray(value.getBytes(StandardCharsets.UTF_8));
  }
}
