package dev.filetables.io.files.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class StorePathTest {
  private static Path store(String location) {
    return Stores.path(location).orElseThrow();
  }

  @Test
  void aPathOfAnotherFileSystemIsNeitherPrefixNorSuffix() {
    Path table = store("s3://tables/copy");
    Path local = Path.of("/tmp/landing");
    assertFalse(table.startsWith(local));
    assertFalse(table.endsWith(local));
    assertFalse(local.startsWith(table));
    assertFalse(table.startsWith(store("s3://other/copy")));
    assertFalse(table.startsWith(store("hdfs://127.0.0.1:8020/copy")));
  }

  @Test
  void pathsOfTheSameStoreCompareByNames() {
    Path file = store("s3://tables/copy/dt=1/part-0.parquet");
    assertTrue(file.startsWith(store("s3://tables/copy")));
    assertFalse(file.startsWith(store("s3://tables/cop")));
    assertTrue(file.endsWith(Path.of("dt=1/part-0.parquet")));
    assertFalse(file.endsWith(Path.of("part-1.parquet")));
  }
}
