package dev.filetables.io.format.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

class StringBinariesTest {
  @Test
  void repeatedValuesShareOneBinary() {
    StringBinaries binaries = new StringBinaries();
    Binary first = binaries.of("DELIVERED");
    assertSame(first, binaries.of("DELIVERED"));
    assertSame(first, binaries.of(new String("DELIVERED"))); // equal, not identical
    assertEquals(Binary.fromString("DELIVERED"), first);
  }

  @Test
  void everyValueEncodesAsUtf8WhetherCachedOrNot() {
    StringBinaries binaries = new StringBinaries();
    // unique values first (the cache gives up on them), then repeated ones, then colliding slots
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 20_000; i++) {
        String value = round == 1 ? "v" + (i % 7) : "ünïque-" + round + "-" + i;
        assertEquals(Binary.fromString(value), binaries.of(value), value);
      }
    }
  }

  @Test
  void collidingValuesNeverReturnEachOthersBytes() {
    StringBinaries binaries = new StringBinaries();
    // "Aa" and "BB" have the same hash code, so they share a slot
    for (int i = 0; i < 100; i++) {
      assertEquals(Binary.fromString("Aa"), binaries.of("Aa"));
      assertEquals(Binary.fromString("BB"), binaries.of("BB"));
    }
  }
}
