package dev.filetables.pipelines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a resumable run asks of the Flink cluster its job runs on, through Flink's REST API: a job's
 * state, cancelling it, why it failed, and where the cluster puts checkpoints and savepoints. The
 * same for the embedded cluster ({@code LocalFlinkCluster} serves the API on a loopback port) and a
 * session cluster.
 */
final class FlinkRestClient {
  /** States after which a job does nothing more. */
  static final List<String> TERMINAL = List.of("FINISHED", "CANCELED", "FAILED");

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final String master;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  /** {@code master}: {@code host:port} of the REST endpoint (an {@code http://} prefix is fine). */
  FlinkRestClient(String master) {
    this.master = master.replaceFirst("^https?://", "").replaceFirst("/+$", "");
  }

  String master() {
    return master;
  }

  /** Fails with one clear line if the cluster does not answer. */
  void checkReachable() {
    try {
      get("/overview");
    } catch (IOException e) {
      throw new CliException(
          "cannot reach the Flink cluster at "
              + master
              + " ("
              + e.getMessage()
              + "); start it or point --flinkMaster at it");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException("interrupted while reaching the Flink cluster at " + master);
    }
  }

  /**
   * The job's state ({@code RUNNING}, {@code CANCELED}, ...); empty if the cluster has no such job.
   */
  Optional<String> state(String jobId) throws IOException, InterruptedException {
    Optional<JsonNode> job = getIfFound("/jobs/" + jobId);
    return job.map(j -> j.path("state").asText());
  }

  /** True for a state after which the job does nothing more (or one the cluster forgot). */
  static boolean isOver(Optional<String> state) {
    return state.isEmpty() || TERMINAL.contains(state.get());
  }

  /** Cancels the job and waits until it has ended (at most {@code timeout}); its state then. */
  Optional<String> cancel(String jobId, Duration timeout) throws IOException, InterruptedException {
    send(
        HttpRequest.newBuilder(uri("/jobs/" + jobId + "?mode=cancel"))
            .method("PATCH", HttpRequest.BodyPublishers.noBody()),
        true);
    long deadline = System.nanoTime() + timeout.toNanos();
    Optional<String> state = state(jobId);
    while (!isOver(state) && System.nanoTime() < deadline) {
      Thread.sleep(100);
      state = state(jobId);
    }
    return state;
  }

  /** The first line of the job's root failure, if it failed. */
  Optional<String> failure(String jobId) throws IOException, InterruptedException {
    Optional<JsonNode> exceptions = getIfFound("/jobs/" + jobId + "/exceptions");
    if (exceptions.isEmpty()) {
      return Optional.empty();
    }
    String text = exceptions.get().path("root-exception").asText("");
    if (text.isBlank()) {
      JsonNode entries = exceptions.get().path("exceptionHistory").path("entries");
      text =
          entries.isArray() && entries.size() > 0 ? entries.get(0).path("stacktrace").asText() : "";
    }
    return text.isBlank() ? Optional.empty() : Optional.of(text);
  }

  /** The cluster's configuration ({@code GET /jobmanager/config}). */
  Map<String, String> configuration() throws IOException, InterruptedException {
    Map<String, String> config = new HashMap<>();
    for (JsonNode entry : get("/jobmanager/config")) {
      config.put(entry.path("key").asText(), entry.path("value").asText());
    }
    return config;
  }

  private JsonNode get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).GET(), false);
  }

  private Optional<JsonNode> getIfFound(String path) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(uri(path)).GET().timeout(TIMEOUT).build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() == 404) {
      return Optional.empty();
    }
    return Optional.of(parse(response));
  }

  private JsonNode send(HttpRequest.Builder request, boolean accepted)
      throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(request.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
    if (accepted && response.statusCode() == 404) {
      return JSON.createObjectNode(); // the job is gone: nothing to cancel
    }
    return parse(response);
  }

  private static JsonNode parse(HttpResponse<String> response) throws IOException {
    if (response.statusCode() / 100 != 2) {
      throw new IOException(
          "Flink's REST API answered "
              + response.statusCode()
              + " to "
              + response.request().method()
              + " "
              + response.request().uri().getPath());
    }
    return response.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(response.body());
  }

  private URI uri(String path) {
    return URI.create("http://" + master + path);
  }
}
