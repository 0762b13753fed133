package dev.filetables.benchmarks;

import dev.filetables.benchmarks.S3CommitProtocol.Staged;
import dev.filetables.benchmarks.S3CrashProbe.Outcome;
import dev.filetables.benchmarks.S3CrashProbe.Point;
import dev.filetables.benchmarks.S3RequestCounter.Counts;
import dev.filetables.pipelines.storage.LocalS3Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.aws2.options.S3Options;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.util.VersionInfo;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * How to publish a file on S3, which has no atomic rename (issue 16): the two candidate commit
 * protocols measured on a real S3 API server (s3proxy, filesystem backend, started here as {@link
 * LocalS3Server}) with the AWS SDK v2 client.
 *
 * <ul>
 *   <li>(a) upload to a hidden key {@code dir/.part-x.inprogress}, then at the commit copy it
 *       server-side to {@code dir/part-x} and delete it (Beam's S3 rename: HeadObject, CopyObject,
 *       DeleteObject); uploaded as Beam's S3 channel writes, a multipart upload whatever the size.
 *   <li>(a') the same with a single PutObject for a file of at most one part (sizes above one part
 *       upload as (a)).
 *   <li>(b) a multipart upload at the final key, parts sent before the checkpoint,
 *       CompleteMultipartUpload at the commit (Flink's S3 FileSink).
 *   <li>(c) FileTables as built ({@link AsBuiltCommit}): (b) through the table code's own store and
 *       file operations, with a marker at the hidden key and the publish's existence checks.
 * </ul>
 *
 * <p>Per committed file: S3 requests by type (counted by an SDK {@link S3RequestCounter}), bytes
 * uploaded, bytes copied server-side, what the server wrote to its disk, commit latency (what runs
 * at the checkpoint) and total latency (upload + commit); the protocols take turns file by file.
 * Then crashes: during the upload, after it, inside the commit; what is left, how a recovery finds
 * it (ListObjectsV2, ListMultipartUploads) and cleans it (DeleteObject, AbortMultipartUpload).
 *
 * <pre>
 * bin/filetables bench s3-commit [--sizes=1MiB,8MiB,64MiB] [--files=20] [--part-size=8MiB]
 *   [--warmup=3] [--work-dir=...]
 * </pre>
 */
public final class S3CommitProtocolBenchmark {
  private static final String BUCKET = "bench";

  private final List<Long> sizes;
  private final int files;
  private final int partSize;
  private final int warmup;
  private final Path workDir;

  private S3CommitProtocolBenchmark(BenchArgs args) {
    sizes =
        Arrays.stream(args.string("sizes", "1MiB,8MiB,64MiB").split(","))
            .map(S3CommitProtocolBenchmark::parseSize)
            .toList();
    files = args.intValue("files", 20);
    long part = parseSize(args.string("part-size", "8MiB"));
    if (part < MultipartUploads.MIN_PART_SIZE || part > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "--part-size must be between 5MiB (S3's smallest part but the last) and 2GiB, got "
              + part);
    }
    partSize = (int) part;
    warmup = args.intValue("warmup", 3);
    workDir =
        args.path(
            "work-dir", Path.of(System.getProperty("java.io.tmpdir"), "filetables-bench-s3commit"));
    for (long size : sizes) {
      if (size < 1 || size > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException("--sizes must be between 1 byte and 2GiB, got " + size);
      }
    }
    if (files < 1) {
      throw new IllegalArgumentException("--files must be at least 1, got " + files);
    }
  }

  public static void main(String[] argv) throws Exception {
    BenchArgs args = new BenchArgs(argv);
    S3CommitProtocolBenchmark bench = new S3CommitProtocolBenchmark(args);
    args.checkNoUnknown();
    BenchJobs.deleteRecursively(bench.workDir);
    Files.createDirectories(bench.workDir);
    List<String> table;
    try (LocalS3Server server = LocalS3Server.start(bench.workDir.resolve("s3"))) {
      server.createBucket(BUCKET);
      // one counter for this client and the stores' own (the as-built protocol's requests)
      S3RequestCounter counter = CountingS3ClientFactory.COUNTER;
      useStores(server);
      try (S3Client s3 = client(server, counter)) {
        table = bench.run(s3, counter, server);
      }
    }
    System.out.println();
    System.out.printf(
        "S3 commit protocols on s3proxy (filesystem backend, loopback), AWS SDK for Java %s;"
            + " %d files per size and protocol, taking turns; parts of %s; per committed file%n",
        VersionInfo.SDK_VERSION, bench.files, size(bench.partSize));
    System.out.printf(
        "(a): multipart upload to dir/.part-x.inprogress (as Beam's S3 channel), then HeadObject +"
            + " CopyObject to dir/part-x + DeleteObject (Beam's rename); (a'): the same with one"
            + " PutObject for a file of at most one part; (b): multipart upload at dir/part-x,"
            + " CompleteMultipartUpload at the checkpoint (Flink's S3 FileSink); (c): FileTables'"
            + " own publish (FileOps.createForPublish, FileOps.publish; parts of 8 MiB)%n");
    table.forEach(System.out::println);
    System.out.println();
    System.out.println(
        "s3proxy's filesystem backend copies and concatenates on the local disk: its CopyObject is a"
            + " lower bound of real S3's (which copies at roughly 50-100 MB/s per object), and its"
            + " CompleteMultipartUpload rewrites the parts into one file where real S3 only links"
            + " them. It also answers 200 to a CompleteMultipartUpload of an upload it does not know"
            + " (real S3: 404 NoSuchUpload).");
    BenchJobs.deleteRecursively(bench.workDir);
  }

  private List<String> run(S3Client s3, S3RequestCounter counter, LocalS3Server server) {
    Optional<ProcessWrites> writes = ProcessWrites.of(server.pid());
    List<S3CommitProtocol> protocols =
        List.of(
            HiddenKeyCopyCommit.multipartUpload(s3, BUCKET, partSize),
            HiddenKeyCopyCommit.singlePut(s3, BUCKET, partSize),
            new MultipartCompleteCommit(s3, BUCKET, partSize),
            new AsBuiltCommit(s3, BUCKET, partSize, counter, server));
    S3CrashProbe crashes = new S3CrashProbe(s3, BUCKET, counter);
    List<String> table = new ArrayList<>();
    table.add(
        "| size | per committed file | "
            + protocols.stream().map(S3CommitProtocol::label).collect(Collectors.joining(" | "))
            + " | (b)/(a) | (b)/(a') | (c)/(a') |");
    table.add("|---|---" + "|---".repeat(protocols.size() + 3) + "|");
    byte[] warmupData = randomBytes(sizes.get(0), 0);
    for (int i = 0; i < warmup; i++) {
      for (int p = 0; p < protocols.size(); p++) {
        if (protocols.get(p).appliesTo(warmupData.length)) {
          commitOne(
              s3,
              counter,
              writes,
              protocols.get(p),
              "warmup/" + i + "/part-" + p + ".bin",
              warmupData,
              new CommitSamples());
        }
      }
    }
    for (long size : sizes) {
      byte[] data = randomBytes(size, size);
      List<Optional<CommitSamples>> samples = new ArrayList<>();
      protocols.forEach(
          p ->
              samples.add(p.appliesTo(size) ? Optional.of(new CommitSamples()) : Optional.empty()));
      System.out.printf("%s: %d files per protocol ...%n", size(size), files);
      for (int i = 0; i < files; i++) {
        for (int p = 0; p < protocols.size(); p++) {
          S3CommitProtocol protocol = protocols.get(p);
          String key = "t/size=" + size + "/part-" + p + "-" + i + ".bin";
          samples.get(p).ifPresent(s -> commitOne(s3, counter, writes, protocol, key, data, s));
        }
      }
      table.addAll(rows(size, samples));
      table.addAll(crashRows(size, data, protocols, crashes));
    }
    return table;
  }

  /** What each crash point leaves and what cleans it; what a replayed commit does. */
  private static List<String> crashRows(
      long size, byte[] data, List<S3CommitProtocol> protocols, S3CrashProbe crashes) {
    List<String> table = new ArrayList<>();
    for (Point point : Point.values()) {
      List<Outcome> outcomes = new ArrayList<>();
      for (S3CommitProtocol protocol : protocols) {
        outcomes.add(
            protocol.appliesTo(size)
                ? crashes.probe(
                    protocol,
                    point,
                    "crash/" + point + "/" + size + "/" + outcomes.size() + "/",
                    data)
                : null);
      }
      table.add(crashRow(point, outcomes, true));
      table.add(crashRow(point, outcomes, false));
    }
    for (boolean interrupted : new boolean[] {true, false}) {
      List<String> replays = new ArrayList<>();
      for (S3CommitProtocol protocol : protocols) {
        replays.add(
            protocol.appliesTo(size)
                ? crashes.replay(
                    protocol,
                    interrupted,
                    "replay/" + interrupted + "/" + size + "/" + replays.size() + "/",
                    data)
                : "as (a)");
      }
      table.add(
          "| | commit replayed "
              + (interrupted ? "after a crash inside it" : "after it succeeded")
              + " | "
              + String.join(" | ", replays)
              + " | | | |");
    }
    return table;
  }

  /** One file through stage and commit, measured into {@code samples}; then deleted. */
  private static void commitOne(
      S3Client s3,
      S3RequestCounter counter,
      Optional<ProcessWrites> writes,
      S3CommitProtocol protocol,
      String key,
      byte[] data,
      CommitSamples samples) {
    long writes0 = writes.map(ProcessWrites::bytes).orElse(-1L);
    Counts counts0 = counter.snapshot();
    long start = System.nanoTime();
    Staged staged = protocol.stage(key, data);
    long staging = System.nanoTime() - start;
    Counts counts1 = counter.snapshot();
    long writes1 = writes.map(ProcessWrites::bytes).orElse(-1L);
    long commitStart = System.nanoTime();
    long copied = protocol.commit(staged);
    long committing = System.nanoTime() - commitStart;
    Counts counts2 = counter.snapshot();
    long writes2 = writes.map(ProcessWrites::bytes).orElse(-1L);
    long visible = s3.headObject(b -> b.bucket(BUCKET).key(key)).contentLength();
    if (visible != data.length) {
      throw new IllegalStateException(
          protocol.label() + " committed " + visible + " bytes at " + key + ", not " + data.length);
    }
    s3.deleteObject(b -> b.bucket(BUCKET).key(key));
    samples.add(
        counts1.minus(counts0),
        counts2.minus(counts1),
        copied,
        writes0 < 0 ? -1 : writes1 - writes0,
        writes0 < 0 ? -1 : writes2 - writes1,
        staging,
        committing);
  }

  private List<String> rows(long size, List<Optional<CommitSamples>> samples) {
    List<String> rows = new ArrayList<>();
    String first = "| " + size(size) + " | ";
    rows.add(
        first
            + "requests before the checkpoint (upload) | "
            + cells(samples, s -> requests(s.upload(), s.files()))
            + ratios(samples, s -> (double) s.upload().total() / s.files()));
    rows.add(
        "| | requests at the checkpoint (commit) | "
            + cells(samples, s -> requests(s.commit(), s.files()))
            + ratios(samples, s -> (double) s.commit().total() / s.files()));
    rows.add(
        "| | requests in all | "
            + cells(samples, s -> count((double) s.upload().plus(s.commit()).total() / s.files()))
            + ratios(samples, s -> (double) s.upload().plus(s.commit()).total() / s.files()));
    rows.add(
        "| | bytes sent (request bodies) | "
            + cells(samples, s -> size(s.upload().plus(s.commit()).bodyBytes() / s.files()))
            + ratios(samples, s -> (double) s.upload().plus(s.commit()).bodyBytes() / s.files()));
    rows.add(
        "| | bytes copied server-side (CopyObject) | "
            + cells(samples, s -> size((long) s.copiedBytesPerFile()))
            + ratios(samples, CommitSamples::copiedBytesPerFile));
    rows.add(
        "| | s3proxy disk writes at the checkpoint (commit) | "
            + cells(samples, s -> writes(s.serverCommitWritesPerFile()))
            + ratios(samples, CommitSamples::serverCommitWritesPerFile));
    rows.add(
        "| | s3proxy disk writes in all | "
            + cells(
                samples, s -> writes(s.serverUploadWritesPerFile() + s.serverCommitWritesPerFile()))
            + ratios(samples, s -> s.serverUploadWritesPerFile() + s.serverCommitWritesPerFile()));
    rows.add(
        "| | commit latency, median (max) | "
            + cells(samples, s -> s.commitLatency().toString())
            + ratios(samples, s -> s.commitLatency().medianMillis()));
    rows.add(
        "| | total latency (upload + commit), median (max) | "
            + cells(samples, s -> s.totalLatency().toString())
            + ratios(samples, s -> s.totalLatency().medianMillis()));
    return rows;
  }

  private static String writes(double bytesPerFile) {
    return bytesPerFile < 0 ? "n/a" : size((long) bytesPerFile);
  }

  private static String crashRow(Point point, List<Outcome> outcomes, boolean left) {
    return "| | "
        + point.description
        + (left ? ": left" : ": cleaned by")
        + " | "
        + outcomes.stream()
            .map(o -> o == null ? "as (a)" : left ? o.left() : o.cleanedBy())
            .collect(Collectors.joining(" | "))
        + " | | | |";
  }

  private static String cells(
      List<Optional<CommitSamples>> samples, Function<CommitSamples, String> cell) {
    return samples.stream()
        .map(s -> s.map(cell).orElse("as (a)"))
        .collect(Collectors.joining(" | "));
  }

  /**
   * (b)/(a), (b)/(a') and (c)/(a') of a figure; the samples are in the order (a), (a'), (b), (c).
   */
  private static String ratios(
      List<Optional<CommitSamples>> samples, ToDoubleFunction<CommitSamples> figure) {
    double b = figure.applyAsDouble(samples.get(2).orElseThrow());
    double c = figure.applyAsDouble(samples.get(3).orElseThrow());
    return " | "
        + ratio(b, samples.get(0).map(figure::applyAsDouble))
        + " | "
        + ratio(b, samples.get(1).map(figure::applyAsDouble))
        + " | "
        + ratio(c, samples.get(1).map(figure::applyAsDouble))
        + " |";
  }

  private static String ratio(double b, Optional<Double> a) {
    if (a.isEmpty() || b < 0 || a.get() < 0) {
      return "—";
    }
    if (a.get() == 0) {
      return b == 0 ? "1" : "—";
    }
    return String.format(Locale.ROOT, "%.2f", b / a.get());
  }

  /** {@code 3: CreateMultipartUpload, UploadPart ×8, CompleteMultipartUpload} per file. */
  static String requests(Counts counts, int files) {
    if (counts.total() == 0) {
      return "0";
    }
    return count((double) counts.total() / files)
        + ": "
        + counts.requests().entrySet().stream()
            .map(
                e -> {
                  double perFile = (double) e.getValue() / files;
                  return e.getKey() + (perFile == 1 ? "" : " ×" + count(perFile));
                })
            .collect(Collectors.joining(", "));
  }

  private static String count(double value) {
    return value == Math.rint(value)
        ? Long.toString((long) value)
        : String.format(Locale.ROOT, "%.1f", value);
  }

  /** Bytes in KiB, MiB or GiB, one decimal. */
  static String size(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB"};
    double value = bytes;
    int unit = -1;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }

  /** {@code 64KiB}, {@code 8MiB}, {@code 1GiB} or a number of bytes. */
  static long parseSize(String text) {
    String value = text.strip().replace("_", "");
    String[] units = {"KiB", "MiB", "GiB"};
    for (int i = 0; i < units.length; i++) {
      if (value.endsWith(units[i])) {
        return Long.parseLong(value.substring(0, value.length() - 3).strip()) << (10 * (i + 1));
      }
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "a size is a number of bytes or ends with KiB, MiB or GiB, got '" + text + "'");
    }
  }

  private static byte[] randomBytes(long size, long seed) {
    byte[] data = new byte[(int) size];
    new Random(seed).nextBytes(data);
    return data;
  }

  /**
   * Points the stores of this JVM at the server, their client counted by {@link
   * CountingS3ClientFactory}: the as-built protocol runs through them.
   */
  private static void useStores(LocalS3Server server) {
    System.setProperty("aws.accessKeyId", server.accessKey());
    System.setProperty("aws.secretAccessKey", server.secretKey());
    PipelineOptionsFactory.register(S3Options.class);
    FileSystems.setDefaultPipelineOptions(
        PipelineOptionsFactory.fromArgs(
                "--endpoint=" + server.endpoint(),
                "--awsRegion=" + server.region(),
                "--s3ClientFactoryClass=" + CountingS3ClientFactory.class.getName())
            .create());
  }

  private static S3Client client(LocalS3Server server, S3RequestCounter counter) {
    return S3Client.builder()
        .endpointOverride(server.endpoint())
        .region(Region.of(server.region()))
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
        .overrideConfiguration(c -> c.addExecutionInterceptor(counter))
        .build();
  }
}
