package dev.filetables.pipelines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The {@code run.json} of a run's state directory: the write's id (kept by every job of the run, so
 * a restored job recognises the hidden files of the one before), what the run is ({@link
 * RunDefinition}), the Flink jobs it submitted with where their checkpoints and savepoints go, and
 * whether it ended for good. Written whole to a temporary file and renamed over the old one, so a
 * kill leaves the old or the new record, never a torn one.
 */
final class RunRecord {
  static final String FILE = "run.json";
  private static final int VERSION = 1;
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** One Flink job of the run. */
  static final class Job {
    final String id;

    /** {@code embedded} or the {@code host:port} of the cluster. */
    final String master;

    /** Where the job's checkpoints go: {@code <checkpoints>/<id>/chk-<n>}; empty if unknown. */
    final Optional<String> checkpoints;

    /** Where savepoints of the job go by default; empty if unknown. */
    final Optional<String> savepoints;

    final Instant started;

    Job(
        String id,
        String master,
        Optional<String> checkpoints,
        Optional<String> savepoints,
        Instant started) {
      this.id = id;
      this.master = master;
      this.checkpoints = checkpoints;
      this.savepoints = savepoints;
      this.started = started;
    }
  }

  final String writeUuid;
  final Instant created;
  final RunDefinition definition;
  final List<Job> jobs;
  final Optional<Instant> finished;

  RunRecord(
      String writeUuid,
      Instant created,
      RunDefinition definition,
      List<Job> jobs,
      Optional<Instant> finished) {
    this.writeUuid = writeUuid;
    this.created = created;
    this.definition = definition;
    this.jobs = List.copyOf(jobs);
    this.finished = finished;
  }

  /** The record of a new run: a new write id, no job yet. */
  static RunRecord start(RunDefinition definition) {
    return new RunRecord(
        UUID.randomUUID().toString(), Instant.now(), definition, List.of(), Optional.empty());
  }

  RunRecord withJob(Job job) {
    List<Job> more = new ArrayList<>(jobs);
    more.add(job);
    return new RunRecord(writeUuid, created, definition, more, finished);
  }

  RunRecord withJobs(List<Job> kept) {
    return new RunRecord(writeUuid, created, definition, kept, finished);
  }

  /** The same run with another definition (a rescale from a savepoint). */
  RunRecord withDefinition(RunDefinition changed) {
    return new RunRecord(writeUuid, created, changed, jobs, finished);
  }

  RunRecord finishedNow() {
    return new RunRecord(writeUuid, created, definition, jobs, Optional.of(Instant.now()));
  }

  Optional<Job> lastJob() {
    return jobs.isEmpty() ? Optional.empty() : Optional.of(jobs.get(jobs.size() - 1));
  }

  String toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("version", VERSION);
    root.put("writeUuid", writeUuid);
    root.put("created", created.toString());
    finished.ifPresent(f -> root.put("finished", f.toString()));
    ObjectNode facts = root.putObject("definition");
    definition.facts().forEach(facts::put);
    ArrayNode list = root.putArray("jobs");
    for (Job job : jobs) {
      ObjectNode node = list.addObject();
      node.put("id", job.id);
      node.put("master", job.master);
      job.checkpoints.ifPresent(c -> node.put("checkpoints", c));
      job.savepoints.ifPresent(s -> node.put("savepoints", s));
      node.put("started", job.started.toString());
    }
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the run record as JSON", e);
    }
  }

  /** Parses {@code text}; {@code source} names it in errors. */
  static RunRecord fromJson(String text, String source) {
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (IOException e) {
      throw new CliException(
          source + " is not a run record (" + e.getMessage().lines().findFirst().orElse("") + ")");
    }
    if (root == null || root.path("version").asInt() != VERSION) {
      throw new CliException(
          source + " is not a run record of this FileTables version (version " + VERSION + ")");
    }
    Map<String, String> facts = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> fields = root.path("definition").fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> fact = fields.next();
      facts.put(fact.getKey(), fact.getValue().asText());
    }
    List<Job> jobs = new ArrayList<>();
    for (JsonNode job : root.path("jobs")) {
      jobs.add(
          new Job(
              required(job, "id", source),
              required(job, "master", source),
              optional(job, "checkpoints"),
              optional(job, "savepoints"),
              Instant.parse(required(job, "started", source))));
    }
    return new RunRecord(
        required(root, "writeUuid", source),
        Instant.parse(required(root, "created", source)),
        RunDefinition.of(facts),
        jobs,
        optional(root, "finished").map(Instant::parse));
  }

  private static String required(JsonNode node, String field, String source) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new CliException(source + " has no '" + field + "': not a complete run record");
    }
    return value.asText();
  }

  private static Optional<String> optional(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? Optional.empty() : Optional.of(value.asText());
  }

  static Optional<RunRecord> read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    return Optional.of(fromJson(Files.readString(file, StandardCharsets.UTF_8), file.toString()));
  }

  /** Replaces {@code file} atomically (a temporary file renamed over it, synced first). */
  void write(Path file) throws IOException {
    Path temporary = file.resolveSibling("." + file.getFileName() + ".tmp");
    Files.writeString(temporary, toJson(), StandardCharsets.UTF_8);
    try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
      channel.force(true);
    }
    Files.move(
        temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
