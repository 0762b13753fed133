package dev.filetables.testfixtures;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.beam.sdk.annotations.Internal;

/**
 * The checkpoints of a {@code filetables run} on the embedded default, as its state directory shows
 * them while the command runs: its newest job (in {@code run.json}, recorded before the job is
 * submitted) and that job's {@code checkpoints/<job>/chk-<n>} directories. Flink creates {@code
 * chk-<n>} when checkpoint n begins and writes its {@code _metadata} last, when it completed. For
 * the tests and benchmarks that kill a run at chosen moments (public for them alone).
 */
@Internal
public final class RunCheckpoints {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The newest checkpoint begun and the newest completed, 0 for none. */
  public record Progress(int newestBegun, int newestComplete) {
    /** A checkpoint has begun and not completed yet. */
    public boolean inProgress() {
      return newestBegun > newestComplete;
    }
  }

  private RunCheckpoints() {}

  /** The id of the run's newest job, from its {@code run.json}. */
  public static Optional<String> newestJob(Path stateDir) throws IOException {
    Path record = stateDir.resolve("run.json");
    JsonNode jobs;
    try {
      jobs = JSON.readTree(record.toFile()).path("jobs");
    } catch (IOException e) {
      if (!Files.exists(record)) {
        return Optional.empty();
      }
      throw e;
    }
    return jobs.size() == 0
        ? Optional.empty()
        : Optional.of(jobs.get(jobs.size() - 1).path("id").asText());
  }

  /** The checkpoints of {@code job} so far. */
  public static Progress of(Path stateDir, String job) throws IOException {
    Path jobDir = stateDir.resolve("checkpoints").resolve(job);
    int begun = 0;
    int complete = 0;
    try (Stream<Path> checkpoints = Files.list(jobDir)) {
      for (Path checkpoint : (Iterable<Path>) checkpoints::iterator) {
        String name = checkpoint.getFileName().toString();
        if (name.matches("chk-\\d+")) {
          int n = Integer.parseInt(name.substring(4));
          begun = Math.max(begun, n);
          if (Files.exists(checkpoint.resolve("_metadata"))) {
            complete = Math.max(complete, n);
          }
        }
      }
    } catch (NoSuchFileException e) {
      return new Progress(0, 0);
    } catch (UncheckedIOException e) {
      if (!(e.getCause() instanceof NoSuchFileException)) {
        throw e;
      }
      // a superseded checkpoint was deleted while listing: look again
      return of(stateDir, job);
    }
    return new Progress(begun, complete);
  }
}
