package dev.filetables.pipelines.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The child-process HDFS takes files, lists, renames and hands them back through Hadoop's client.
 */
@Tag("cluster")
class LocalHdfsTest {
  @TempDir Path dir;

  @Test
  void writesListsRenamesAndReadsFilesThroughHadoopsClient() throws Exception {
    long pid;
    try (LocalHdfs hdfs = LocalHdfs.start(dir)) {
      pid = hdfs.pid();
      assertTrue(hdfs.uri().toString().startsWith("hdfs://127.0.0.1:"), hdfs.toString());
      Configuration conf = new Configuration();
      conf.setInt("dfs.replication", 1);
      byte[] content = "{\"id\":1}\n".getBytes(StandardCharsets.UTF_8);
      try (FileSystem fs = FileSystem.newInstance(hdfs.uri(), conf)) {
        org.apache.hadoop.fs.Path hidden = new org.apache.hadoop.fs.Path("/t/dt=1/.part-0.json");
        try (FSDataOutputStream out = fs.create(hidden)) {
          out.write(content);
        }
        org.apache.hadoop.fs.Path visible = new org.apache.hadoop.fs.Path("/t/dt=1/part-0.json");
        assertTrue(fs.rename(hidden, visible));
        assertFalse(fs.exists(hidden));

        List<String> names =
            Arrays.stream(fs.listStatus(new org.apache.hadoop.fs.Path("/t/dt=1")))
                .map(FileStatus::getPath)
                .map(org.apache.hadoop.fs.Path::getName)
                .toList();
        assertEquals(List.of("part-0.json"), names);
        assertEquals(content.length, fs.getFileStatus(visible).getLen());
        byte[] read = new byte[content.length];
        try (FSDataInputStream in = fs.open(visible)) {
          in.readFully(read);
        }
        assertArrayEquals(content, read);
      }
    }
    assertTrue(ProcessHandle.of(pid).isEmpty(), "the server process ended with close()");
  }
}
