package dev.filetables.io.files.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.files.TablePaths;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Store paths behave as the JDK's paths do, and print as the string they came from. */
class StorePathTest {
  @Test
  void printsAsParsedWithHiveEscapesKept() {
    String location = "s3://bucket/warehouse/orders/dt=2020-05-20/region=eu%2Fwest/part-0.parquet";
    Path path = TablePaths.of(location);
    assertTrue(Stores.isStore(path));
    assertEquals(location, path.toString());
    assertEquals("part-0.parquet", path.getFileName().toString());
    assertEquals("region=eu%2Fwest", path.getParent().getFileName().toString());
    assertEquals(
        "hdfs://nn:8020/a/b", TablePaths.of("hdfs://nn:8020//a/b/").toString(), "slashes collapse");
    assertEquals("s3://bucket/", TablePaths.of("s3://bucket").toString());
  }

  @Test
  void resolvesRelativizesAndComparesLikeJdkPaths() {
    Path root = TablePaths.of("s3://bucket/t");
    Path file = root.resolve("dt=1").resolve("part-0.csv");
    assertEquals("s3://bucket/t/dt=1/part-0.csv", file.toString());
    assertEquals(file, TablePaths.of("s3://bucket/t/dt=1/part-0.csv"));
    assertEquals("dt=1/part-0.csv", root.relativize(file).toString());
    assertEquals(root.resolve("x"), file.resolveSibling("x").getParent().resolveSibling("x"));
    assertTrue(file.startsWith(root));
    assertFalse(file.startsWith(TablePaths.of("s3://other/t")));
    assertFalse(file.startsWith(Path.of("/t")), "a local path is never a prefix");
    assertTrue(file.endsWith(Path.of("part-0.csv")) || file.endsWith(file.getFileName()));
    assertEquals(
        TablePaths.of("s3://bucket/t/b"), TablePaths.of("s3://bucket/t/a/../b").normalize());
    assertNull(TablePaths.of("s3://bucket/").getParent());
    assertEquals(2, root.resolve("dt=1").getNameCount());
    assertThrows(IllegalArgumentException.class, () -> TablePaths.of("s3:///key"));
  }

  @Test
  void localPathsStayLocal() {
    assertFalse(Stores.isStore(TablePaths.of("/data/orders")));
    assertEquals(Path.of("/data/orders"), TablePaths.of("file:///data/orders"));
    assertFalse(Stores.isStore(TablePaths.of("relative/orders")));
  }

  @Test
  void aPathOfAnotherFileSystemIsNeitherPrefixNorSuffix() {
    Path table = TablePaths.of("s3://tables/copy");
    Path local = Path.of("/tmp/landing");
    assertFalse(table.startsWith(local));
    assertFalse(table.endsWith(local));
    assertFalse(local.startsWith(table));
    assertFalse(table.startsWith(TablePaths.of("s3://other/copy")));
    assertFalse(table.startsWith(TablePaths.of("hdfs://127.0.0.1:8020/copy")));
  }

  @Test
  void pathsOfTheSameStoreCompareByNames() {
    Path file = TablePaths.of("s3://tables/copy/dt=1/part-0.parquet");
    assertTrue(file.startsWith(TablePaths.of("s3://tables/copy")));
    assertFalse(file.startsWith(TablePaths.of("s3://tables/cop")));
    assertTrue(file.endsWith(Path.of("dt=1/part-0.parquet")));
    assertFalse(file.endsWith(Path.of("part-1.parquet")));
  }
}
