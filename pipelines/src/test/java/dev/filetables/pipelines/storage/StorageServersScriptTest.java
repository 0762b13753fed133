package dev.filetables.pipelines.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** runner-configs/storage-servers.sh: what its start prints is enough to use both servers. */
@Tag("cluster")
class StorageServersScriptTest {
  private static final Pattern EXPORT = Pattern.compile("(?m)^export (\\w+)=(\\S+)$");
  private static final Pattern HDFS = Pattern.compile("(?m)^# HDFS: (hdfs://\\S+)");

  @TempDir Path dir;

  @Test
  void startPrintsWhatClientsNeedAndStopLeavesNothingRunning() throws Exception {
    try {
      Run start = script("start");
      assertEquals(0, start.exitCode, start.toString());
      Map<String, String> exports = new HashMap<>();
      Matcher export = EXPORT.matcher(start.out);
      while (export.find()) {
        exports.put(export.group(1), export.group(2));
      }
      Matcher hdfs = HDFS.matcher(start.out);
      assertTrue(hdfs.find(), start.toString());

      try (S3Client s3 =
          S3Client.builder()
              .endpointOverride(URI.create(exports.get("AWS_ENDPOINT_URL")))
              .region(Region.of(exports.get("AWS_REGION")))
              .forcePathStyle(true)
              .credentialsProvider(
                  StaticCredentialsProvider.create(
                      AwsBasicCredentials.create(
                          exports.get("AWS_ACCESS_KEY_ID"), exports.get("AWS_SECRET_ACCESS_KEY"))))
              .build()) {
        s3.putObject(b -> b.bucket("filetables").key("k"), RequestBody.fromString("v"));
        assertEquals("v", Files.readString(dir.resolve("s3/data/filetables/k")));
      }
      Configuration conf = new Configuration();
      conf.setInt("dfs.replication", 1);
      try (FileSystem fs = FileSystem.newInstance(URI.create(hdfs.group(1)), conf);
          FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path("/f"))) {
        out.write(1);
      }

      Run status = script("status");
      assertEquals(0, status.exitCode, status.toString());
      assertEquals(start.out, status.out, "status prints the same settings");
    } finally {
      Run stop = script("stop");
      assertEquals(0, stop.exitCode, stop.toString());
    }
    Run stopped = script("status");
    assertEquals(3, stopped.exitCode, stopped.toString());
    assertTrue(stopped.err.contains("s3 is not running"), stopped.toString());
    assertTrue(stopped.err.contains("hdfs is not running"), stopped.toString());
  }

  private Run script(String command) throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(List.of("bash", projectRoot().resolve(SCRIPT).toString(), command))
            .redirectOutput(dir.resolve(command + ".out").toFile())
            .redirectError(dir.resolve(command + ".err").toFile());
    builder.environment().put("STORAGE_SERVERS_DIR", dir.toString());
    builder.environment().put("STORAGE_S3_PORT", "0");
    builder.environment().put("STORAGE_HDFS_PORT", "0");
    builder.environment().put("FILETABLES_MVN_OPTS", "-o");
    Process process = builder.start();
    if (!process.waitFor(300, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    return new Run(
        process.isAlive() ? -1 : process.exitValue(),
        Files.readString(dir.resolve(command + ".out"), StandardCharsets.UTF_8),
        Files.readString(dir.resolve(command + ".err"), StandardCharsets.UTF_8));
  }

  private static final String SCRIPT = "runner-configs/storage-servers.sh";

  private static Path projectRoot() {
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve(SCRIPT))) {
        return d;
      }
    }
    throw new IllegalStateException("no " + SCRIPT + " above " + Path.of("").toAbsolutePath());
  }

  private record Run(int exitCode, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }
}
