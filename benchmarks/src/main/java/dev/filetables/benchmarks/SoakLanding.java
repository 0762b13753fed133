package dev.filetables.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak's landing directory: JSON files land continuously, each atomically (written under a
 * hidden name, then renamed), into {@code dt=<day>} partitions, a new day every {@link
 * #FILES_PER_DAY} files. Ids are unique and consecutive in landing order, so "every row landed
 * before t" is "every id below {@link #landedRows()} at t". Row {@code i} is {@code {"id": i,
 * "msg": "row i", "bucket": "<i mod 4>"}}.
 *
 * <p>The rate changes every {@link #PHASE_MILLIS}: each phase draws its rows/s log-uniformly
 * between 3 and {@code maxRate}, each file a pause of 100–400 ms, all from the seed.
 */
final class SoakLanding implements AutoCloseable {
  static final int BUCKETS = 4;
  static final int FILES_PER_DAY = 400;
  private static final long PHASE_MILLIS = 10_000;
  private static final double MIN_RATE = 3;

  private final Path dir;
  private final Random random;
  private final double maxRate;
  private final AtomicLong landedRows = new AtomicLong();
  private final AtomicBoolean stopped = new AtomicBoolean();

  /** The first id of each landed file and its day (read by the reader's checks). */
  private final NavigableMap<Long, String> dayByFirstId = new TreeMap<>();

  private final Thread lander;
  private volatile IOException failure;
  private int files;

  SoakLanding(Path dir, long seed, double maxRate) throws IOException {
    this.dir = Files.createDirectories(dir);
    this.random = new Random(seed);
    this.maxRate = maxRate;
    this.lander = new Thread(this::landUntilStopped, "soak-lander");
    lander.setDaemon(true);
  }

  Path dir() {
    return dir;
  }

  void start() {
    lander.start();
  }

  /** Rows landed so far: ids {@code 0 .. landedRows()-1}. */
  long landedRows() {
    return landedRows.get();
  }

  synchronized int files() {
    return files;
  }

  /** The day (partition) of a landed id. */
  synchronized String dayOf(long id) {
    Map.Entry<Long, String> file = dayByFirstId.floorEntry(id);
    return file == null || id >= landedRows() ? null : file.getValue();
  }

  /** The sink partitions the landed rows belong to, as {@code dt=<day>/bucket=<b>}. */
  synchronized Set<String> partitions() {
    Set<String> partitions = new TreeSet<>();
    for (Map.Entry<Long, String> file : dayByFirstId.entrySet()) {
      Long next = dayByFirstId.higherKey(file.getKey());
      long end = next == null ? landedRows() : next;
      for (long id = file.getKey(); id < end && id < file.getKey() + BUCKETS; id++) {
        partitions.add("dt=" + file.getValue() + "/bucket=" + id % BUCKETS);
      }
    }
    return partitions;
  }

  /** Stops landing; returns the rows landed. */
  long stop() throws Exception {
    stopped.set(true);
    lander.join();
    if (failure != null) {
      throw failure;
    }
    return landedRows();
  }

  @Override
  public void close() throws Exception {
    stop();
  }

  private void landUntilStopped() {
    try {
      long phaseEnd = 0;
      double rate = MIN_RATE;
      while (!stopped.get()) {
        if (System.currentTimeMillis() >= phaseEnd) {
          rate = Math.exp(Math.log(MIN_RATE) + random.nextDouble() * Math.log(maxRate / MIN_RATE));
          phaseEnd = System.currentTimeMillis() + PHASE_MILLIS;
        }
        long pauseMillis = 100 + random.nextInt(301);
        land(Math.max(1, Math.round(rate * pauseMillis / 1000.0)));
        Thread.sleep(pauseMillis);
      }
    } catch (IOException e) {
      failure = e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void land(long rows) throws IOException {
    int n = files();
    String day = LocalDate.of(2020, 5, 20).plusDays(n / FILES_PER_DAY).toString();
    long first = landedRows();
    StringBuilder lines = new StringBuilder();
    for (long id = first; id < first + rows; id++) {
      lines
          .append("{\"id\": ")
          .append(id)
          .append(", \"msg\": \"row ")
          .append(id)
          .append("\", \"bucket\": \"")
          .append(id % BUCKETS)
          .append("\"}\n");
    }
    Path partition = Files.createDirectories(dir.resolve("dt=" + day));
    Path hidden = Files.writeString(partition.resolve(".f" + n + ".json.inprogress"), lines);
    Files.move(hidden, partition.resolve("f" + n + ".json"), StandardCopyOption.ATOMIC_MOVE);
    synchronized (this) {
      dayByFirstId.put(first, day);
      files = n + 1;
      landedRows.set(first + rows);
    }
  }
}
