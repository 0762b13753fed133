package dev.filetables.benchmarks;

import dev.filetables.pipelines.storage.LocalHdfs;
import dev.filetables.pipelines.storage.LocalS3Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * Soak: a watched {@code run}, started with {@code bin/filetables} as a user starts it, killed with
 * {@code kill -9} at random moments and started again with the same command each time, while files
 * keep landing; at the end landing stops, the last start catches up and is stopped with SIGTERM,
 * and an independent reader (DuckDB, {@link SoakReader}) judges the table. A runnable program, not
 * a test:
 *
 * <pre>
 * bin/filetables bench soak [--kills=20] [--store=local|s3|hdfs] [--format=json|parquet]
 *   [--seed=1] [--max-rate=3000] [--output=./bench-output]
 * </pre>
 *
 * <p>The landing directory is on the local disk ({@link SoakLanding}, 3 to {@code max-rate} rows/s,
 * unique ids); the table is partitioned by day and bucket on the chosen store (S3: s3proxy, HDFS:
 * MiniDFSCluster, both child JVMs started here), rolls files every 2 s and commits partitions with
 * a success file; the job checkpoints every 2 s. Kill moments: {@link KillMoment}. Reports rows
 * landed, lost and duplicated, partitions committed, hidden files left on the store and, for each
 * restart, the time until the table held every row landed before the kill; fails if a row was lost
 * or duplicated.
 */
public final class SoakBenchmark {
  private static final String BUCKET = "tables";
  private static final long FINAL_TIMEOUT_MILLIS = 600_000;

  private final int kills;
  private final String store;
  private final String format;
  private final long seed;
  private final double maxRate;
  private final Path work;

  /** The kill plan's and the kill moments' random numbers. */
  private final Random random;

  /** The landing's seed, derived from {@code --seed} as {@link #random}'s is. */
  private final long landingSeed;

  private SoakBenchmark(BenchArgs args) {
    kills = args.intValue("kills", 20);
    store = args.string("store", "local");
    format = args.string("format", "json");
    seed = args.longValue("seed", 1);
    maxRate = args.doubleValue("max-rate", 3000);
    Path output = args.path("output", Path.of("bench-output")).toAbsolutePath().normalize();
    work = output.resolve("soak-" + store + "-" + format);
    // java.util.Random's first numbers are alike for nearby seeds (1, 2, 3): mix them first
    SplittableRandom seeds = new SplittableRandom(seed);
    random = new Random(seeds.nextLong());
    landingSeed = seeds.nextLong();
    if (!List.of("local", "s3", "hdfs").contains(store)) {
      throw new IllegalArgumentException("--store is local, s3 or hdfs, got '" + store + "'");
    }
    if (!List.of("json", "parquet").contains(format)) {
      throw new IllegalArgumentException("--format is json or parquet, got '" + format + "'");
    }
  }

  public static void main(String[] argv) throws Exception {
    BenchArgs args = new BenchArgs(argv);
    SoakBenchmark bench = new SoakBenchmark(args);
    args.checkNoUnknown();
    bench.run();
  }

  /**
   * One start that was killed: {@code newestCheckpoint} is the id of the newest checkpoint its job
   * completed (ids go on from the restored one; 0 for none), {@code began} how it began as its
   * output says (new, resumed, from start, or "-" when it had said nothing yet).
   */
  private record Kill(
      KillMoment moment,
      String detail,
      long startNanos,
      long killedAfterMillis,
      long landedBefore,
      long landedAtKill,
      long visibleAtKill,
      int newestCheckpoint,
      String began) {}

  private void run() throws Exception {
    String launcher = System.getProperty("filetables.launcher");
    if (launcher == null) {
      throw new IllegalStateException("run it with bin/filetables bench soak: it starts the CLI");
    }
    BenchJobs.deleteRecursively(work);
    Files.createDirectories(work);
    System.out.printf(
        Locale.ROOT,
        "== soak: %d kills, table on %s (%s), seed %d, up to %.0f rows/s; %d cores; in %s%n",
        kills,
        store,
        format,
        seed,
        maxRate,
        Runtime.getRuntime().availableProcessors(),
        work);
    LocalS3Server s3 = store.equals("s3") ? LocalS3Server.start(work.resolve("s3")) : null;
    LocalHdfs hdfs = store.equals("hdfs") ? LocalHdfs.start(work.resolve("hdfs")) : null;
    try {
      String location;
      StoreFiles files;
      List<String> storeArgs = new ArrayList<>();
      Map<String, String> env = Map.of();
      if (s3 != null) {
        s3.createBucket(BUCKET);
        location = "s3://" + BUCKET + "/soak/table";
        files = StoreFiles.s3(s3, BUCKET, "soak/table");
        storeArgs.add("--endpoint=" + s3.endpoint());
        storeArgs.add("--awsRegion=" + s3.region());
        env = Map.of("AWS_ACCESS_KEY_ID", s3.accessKey(), "AWS_SECRET_ACCESS_KEY", s3.secretKey());
      } else if (hdfs != null) {
        location = hdfs.uri() + "/soak/table";
        files = new HdfsFiles(location);
      } else {
        location = work.resolve("table").toString();
        files = StoreFiles.local(Path.of(location));
      }
      try (SoakLanding landing = new SoakLanding(work.resolve("landing"), landingSeed, maxRate);
          SoakReader reader = new SoakReader(files, format, work.resolve("reader"))) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(launcher).toAbsolutePath().toString());
        command.addAll(runArgs(landing.dir(), location));
        command.addAll(storeArgs);
        System.out.println("   command: " + String.join(" ", command.subList(1, command.size())));
        soak(landing, reader, command, env);
      } finally {
        files.close();
      }
    } finally {
      if (hdfs != null) {
        hdfs.close();
      }
      if (s3 != null) {
        s3.close();
      }
    }
  }

  private void soak(
      SoakLanding landing, SoakReader reader, List<String> command, Map<String, String> env)
      throws Exception {
    Path state = work.resolve("run-state");
    landing.start();
    reader.start();
    Thread.sleep(2_000); // files wait for the first start
    List<Kill> killed = new ArrayList<>();
    long landedBefore = 0;
    for (KillMoment moment : KillMoment.plan(kills, random)) {
      int n = killed.size() + 1;
      SoakStart start = SoakStart.start(command, env, state, work.resolve("cli-" + n + ".log"));
      try {
        String detail = moment.await(start, reader, landedBefore, random);
        long landedAtKill = landing.landedRows();
        long visibleAtKill = reader.visiblePrefix();
        long at = start.elapsedMillis();
        start.kill();
        int newestCheckpoint = start.checkpoints().newestComplete();
        killed.add(
            new Kill(
                moment,
                detail,
                start.startNanos(),
                at,
                landedBefore,
                landedAtKill,
                visibleAtKill,
                newestCheckpoint,
                start.began()));
        System.out.printf(
            Locale.ROOT,
            "   kill %2d after %5.1f s, %s%s; %,d rows landed, %,d visible%n",
            n,
            at / 1000.0,
            moment.label,
            detail.isEmpty() ? "" : " (" + detail + ")",
            landedAtKill,
            visibleAtKill);
        landedBefore = landedAtKill;
      } finally {
        start.kill();
      }
    }

    SoakStart last = SoakStart.start(command, env, state, work.resolve("cli-last.log"));
    long stoppedLanding;
    int exit;
    try {
      long target = landedBefore;
      awaitUntil(
          last,
          () -> reader.caughtUp(last.startNanos(), target).isPresent(),
          reader,
          () -> "ids from " + reader.visiblePrefix() + " of " + target + " not visible");
      stoppedLanding = last.elapsedMillis();
      long landed = landing.stop();
      awaitUntil(
          last,
          () -> reader.complete(landed, landing.partitions()),
          reader,
          () -> reader.whyIncomplete(landed, landing.partitions()));
      exit = last.terminate();
    } finally {
      last.kill();
    }
    SoakReader.Verdict verdict = reader.judge(landing);
    print(killed, reader, last, stoppedLanding, exit, verdict);
    if (!verdict.exactlyOnce()) {
      throw new IllegalStateException(
          String.format(
              Locale.ROOT,
              "soak with seed %d: %d row(s) lost (e.g. ids %s), %d duplicated (e.g. %s), %d"
                  + " never landed, %d in the wrong partition; logs in %s",
              seed,
              verdict.lost(),
              verdict.lostExamples(),
              verdict.duplicated(),
              verdict.duplicatedExamples(),
              verdict.neverLanded(),
              verdict.misplaced(),
              work));
    }
  }

  /** A condition over the table. */
  @FunctionalInterface
  private interface Condition {
    boolean holds() throws Exception;
  }

  /** Waits until {@code condition} holds; fails if the command ends or it takes too long. */
  private static void awaitUntil(
      SoakStart start, Condition condition, SoakReader reader, Supplier<String> whyNot)
      throws Exception {
    long deadline = start.elapsedMillis() + FINAL_TIMEOUT_MILLIS;
    while (!condition.holds()) {
      start.checkAlive();
      if (start.elapsedMillis() > deadline) {
        throw new IllegalStateException(
            "the last start did not catch up within "
                + FINAL_TIMEOUT_MILLIS / 1000
                + " s: "
                + whyNot.get()
                + reader.lastError().map(e -> " (reader: " + e + ")").orElse(""));
      }
      Thread.sleep(100);
    }
  }

  private static long median(List<Long> sorted) {
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private List<String> runArgs(Path landing, String location) throws Exception {
    Path source =
        Files.writeString(
            work.resolve("landing.sql"),
            "CREATE TABLE landing (id BIGINT NOT NULL, msg STRING, bucket STRING, dt STRING)"
                + " PARTITIONED BY (dt) WITH ('connector' = 'filesystem', 'path' = '"
                + landing
                + "', 'format' = 'json', 'source.monitor-interval' = '500 ms')");
    Path sink =
        Files.writeString(
            work.resolve("table.sql"),
            "CREATE TABLE soak (id BIGINT NOT NULL, msg STRING, bucket STRING, dt STRING)"
                + " PARTITIONED BY (dt, bucket) WITH ('connector' = 'filesystem', 'path' = '"
                + location
                + "', 'format' = '"
                + format
                + "', 'sink.rolling-policy.rollover-interval' = '2 s',"
                + " 'sink.rolling-policy.inactivity-interval' = '2 s',"
                + " 'sink.rolling-policy.check-interval' = '1 s',"
                + " 'sink.partition-commit.trigger' = 'process-time',"
                + " 'sink.partition-commit.delay' = '0 s',"
                + " 'sink.partition-commit.policy.kind' = 'success-file')");
    return List.of(
        "run",
        "--from",
        source.toString(),
        "--to",
        sink.toString(),
        "--state-dir",
        work.resolve("run-state").toString(),
        "--checkpointingInterval=2000",
        "--parallelism=2");
  }

  private void print(
      List<Kill> killed,
      SoakReader reader,
      SoakStart last,
      long stoppedLanding,
      int exit,
      SoakReader.Verdict verdict)
      throws Exception {
    System.out.println();
    String header =
        String.format(
            Locale.ROOT,
            "%-5s %-38s %9s %11s %11s %11s %10s %12s",
            "start",
            "killed",
            "killed at",
            "last chk",
            "landed",
            "visible",
            "began",
            "catch-up");
    System.out.println(header);
    System.out.println("-".repeat(header.length()));
    List<Long> catchUps = new ArrayList<>();
    int killedFirst = 0;
    for (int i = 0; i < killed.size(); i++) {
      Kill k = killed.get(i);
      String catchUp = "-";
      if (i > 0) {
        Optional<Long> ms = reader.caughtUp(k.startNanos(), k.landedBefore());
        if (ms.isPresent() && ms.get() <= k.killedAfterMillis()) {
          catchUps.add(ms.get());
          catchUp = BenchJobs.seconds(ms.get());
        } else {
          killedFirst++;
          catchUp = "killed first";
        }
      }
      System.out.printf(
          Locale.ROOT,
          "%-5d %-38s %9s %11d %,11d %,11d %10s %12s%n",
          i + 1,
          k.moment().label + (k.detail().isEmpty() ? "" : ": " + k.detail()),
          BenchJobs.seconds(k.killedAfterMillis()),
          k.newestCheckpoint(),
          k.landedAtKill(),
          k.visibleAtKill(),
          k.began(),
          catchUp);
    }
    long landedBefore = killed.isEmpty() ? 0 : killed.get(killed.size() - 1).landedAtKill();
    Optional<Long> lastCatchUp = reader.caughtUp(last.startNanos(), landedBefore);
    lastCatchUp.ifPresent(catchUps::add);
    System.out.printf(
        Locale.ROOT,
        "%-5s %-38s %9s %11s %11s %11s %10s %12s%n",
        "last",
        "SIGTERM once complete (exit " + exit + ")",
        BenchJobs.seconds(last.elapsedMillis()),
        "",
        "",
        "",
        last.began(),
        lastCatchUp.map(BenchJobs::seconds).orElse("-"));
    System.out.println();
    System.out.printf(Locale.ROOT, "rows landed            %,d%n", verdict.landed());
    System.out.printf(
        Locale.ROOT,
        "rows lost              %,d%s%n",
        verdict.lost(),
        verdict.lost() == 0 ? "" : " e.g. ids " + verdict.lostExamples());
    System.out.printf(
        Locale.ROOT,
        "rows duplicated        %,d%s%n",
        verdict.duplicated(),
        verdict.duplicated() == 0 ? "" : " e.g. ids " + verdict.duplicatedExamples());
    System.out.printf(
        Locale.ROOT,
        "rows never landed      %,d; in the wrong partition %,d%n",
        verdict.neverLanded(),
        verdict.misplaced());
    System.out.printf(
        Locale.ROOT,
        "partitions committed   %d of %d (visible files %,d)%n",
        verdict.partitionsCommitted(),
        verdict.partitionsExpected(),
        verdict.files());
    System.out.printf(
        Locale.ROOT,
        "hidden files left      %d%s%n",
        verdict.leftovers().size(),
        verdict.leftovers().isEmpty()
            ? ""
            : " e.g. " + verdict.leftovers().subList(0, Math.min(5, verdict.leftovers().size())));
    catchUps.sort(null);
    System.out.printf(
        Locale.ROOT,
        "catch-up after restart %s over %d restarts (%d killed before catching up; landing"
            + " stopped %s into the last start)%n",
        catchUps.isEmpty()
            ? "-"
            : "min "
                + BenchJobs.seconds(catchUps.get(0))
                + ", median "
                + BenchJobs.seconds(median(catchUps))
                + ", max "
                + BenchJobs.seconds(catchUps.get(catchUps.size() - 1)),
        catchUps.size(),
        killedFirst,
        BenchJobs.seconds(stoppedLanding));
  }
}
