package dev.filetables.pipelines.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * A real S3 server and a real HDFS on loopback, with one bucket, set up as this JVM's stores: the
 * S3 settings become the file systems' default options and the credentials go where the AWS default
 * chain finds them in-process (the {@code aws.accessKeyId} / {@code aws.secretAccessKey} system
 * properties). For tests and benchmarks that run jobs in this JVM (Direct runner, embedded Flink).
 */
public final class StorageServers implements AutoCloseable {
  public static final String BUCKET = "tables";

  private final LocalS3Server s3;
  private volatile LocalHdfs hdfs;

  private StorageServers(LocalS3Server s3, LocalHdfs hdfs) {
    this.s3 = s3;
    this.hdfs = hdfs;
  }

  private static StorageServers shared;

  /**
   * The servers every test class of this JVM shares (started on first use; they stop when the JVM
   * exits, see {@link ServerProcess}): starting them costs about 15 s of a test suite each time.
   */
  public static synchronized StorageServers shared() throws IOException {
    if (shared == null) {
      shared = start();
    }
    shared.makeDefault();
    return shared;
  }

  /** Starts both servers under a new temporary directory. */
  public static StorageServers start() throws IOException {
    Path dir = Files.createTempDirectory("filetables-storage-");
    LocalS3Server s3 = LocalS3Server.start(dir.resolve("s3"));
    try {
      s3.createBucket(BUCKET);
      LocalHdfs hdfs = LocalHdfs.start(dir.resolve("hdfs"));
      StorageServers servers = new StorageServers(s3, hdfs);
      servers.makeDefault();
      return servers;
    } catch (IOException | RuntimeException e) {
      s3.close();
      throw e;
    }
  }

  /** Points this JVM's stores at these servers (again, after another test changed them). */
  public void makeDefault() {
    System.setProperty("aws.accessKeyId", s3.accessKey());
    System.setProperty("aws.secretAccessKey", s3.secretKey());
    FileSystems.setDefaultPipelineOptions(
        PipelineOptionsFactory.fromArgs(pipelineArgs().toArray(new String[0])).create());
  }

  /** The pipeline arguments that reach the S3 server: {@code --endpoint}, {@code --awsRegion}. */
  public List<String> pipelineArgs() {
    List<String> args = new ArrayList<>();
    args.add("--endpoint=" + s3.endpoint());
    args.add("--awsRegion=" + s3.region());
    return args;
  }

  /** The root of a store: {@code s3://tables} or {@code hdfs://127.0.0.1:<port>}. */
  public String root(String store) {
    switch (store) {
      case "s3":
        return "s3://" + BUCKET;
      case "hdfs":
        return hdfs.uri().toString();
      default:
        throw new IllegalArgumentException("no store '" + store + "': s3 or hdfs");
    }
  }

  /**
   * The keys of the multipart uploads still open under {@code s3Location} ({@code
   * s3://tables/dir}): what the table code left unpublished and unaborted on S3.
   */
  public List<String> openUploads(String s3Location) {
    String prefix = "s3://" + BUCKET + "/";
    if (!s3Location.startsWith(prefix)) {
      throw new IllegalArgumentException(s3Location + " is not under " + prefix);
    }
    return s3.openUploads(BUCKET, s3Location.substring(prefix.length()));
  }

  public LocalS3Server s3() {
    return s3;
  }

  public LocalHdfs hdfs() {
    return hdfs;
  }

  /**
   * Kills HDFS with {@code kill -9} (NameNode and DataNode at once), for tests of HDFS going away;
   * {@link #restartHdfs} brings it back at the same address.
   */
  public void killHdfs() {
    hdfs.kill();
  }

  /** Starts HDFS again on its storage and NameNode port if it is not running (after a kill). */
  public synchronized void restartHdfs() throws IOException {
    if (!hdfs.isRunning()) {
      hdfs = hdfs.restart();
    }
  }

  @Override
  public void close() {
    try {
      hdfs.close();
    } finally {
      s3.close();
    }
  }
}
