package dev.filetables.tests.streaming;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.filetables.io.commit.CommittedFile;
import dev.filetables.io.commit.PartitionCommitContext;
import dev.filetables.io.commit.PartitionCommitPolicy;
import dev.filetables.io.commit.PartitionFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A {@code custom} commit policy for the streaming commit tests: at each commit it looks at the
 * partition directory itself, independently of what the committer hands over, and appends one JSON
 * line to {@code <table root>/../<table name>.commits.jsonl} (outside the table) with the
 * partition, the commit number and reason, the visible data files and their rows (counted as lines:
 * the tests write JSON, one row a line) and the files the commit context listed.
 *
 * <p>Appends survive job failures, so a commit re-run after a restore shows up as another line.
 */
public final class RecordingCommitPolicy implements PartitionCommitPolicy {
  private static final ObjectMapper JSON = new ObjectMapper();
  // one JVM (the embedded cluster) runs every policy instance: one lock keeps lines whole
  private static final Object LOCK = new Object();

  /** What one commit saw. */
  static final class Commit {
    final String partition;
    final int commitNumber;
    final String reason;
    final Set<String> visibleFiles;
    final long visibleRows;
    final Set<String> contextFiles;

    Commit(JsonNode line) {
      this.partition = line.path("partition").asText();
      this.commitNumber = line.path("commitNumber").asInt();
      this.reason = line.path("reason").asText();
      this.visibleFiles = names(line.path("visibleFiles"));
      this.visibleRows = line.path("visibleRows").asLong();
      this.contextFiles = names(line.path("contextFiles"));
    }

    private static Set<String> names(JsonNode array) {
      Set<String> names = new TreeSet<>();
      array.forEach(n -> names.add(n.asText()));
      return names;
    }

    @Override
    public String toString() {
      return partition
          + " #"
          + commitNumber
          + " ("
          + reason
          + "): "
          + visibleRows
          + " visible rows in "
          + visibleFiles.size()
          + " files";
    }
  }

  /** The log file of the table at {@code tableRoot}. */
  static Path logOf(Path tableRoot) {
    Path root = tableRoot.toAbsolutePath().normalize();
    return root.resolveSibling(root.getFileName() + ".commits.jsonl");
  }

  /** Every commit recorded for the table at {@code tableRoot}, in the order they ran. */
  static List<Commit> commits(Path tableRoot) throws IOException {
    Path log = logOf(tableRoot);
    List<Commit> commits = new ArrayList<>();
    if (!Files.exists(log)) {
      return commits;
    }
    synchronized (LOCK) {
      try (BufferedReader reader = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
        String line;
        while ((line = reader.readLine()) != null) {
          if (!line.isBlank()) {
            commits.add(new Commit(JSON.readTree(line)));
          }
        }
      }
    }
    return commits;
  }

  public RecordingCommitPolicy() {}

  @Override
  public void commit(PartitionCommitContext context) throws IOException {
    ObjectNode line = JSON.createObjectNode();
    line.put("partition", context.partitionPath());
    line.put("commitNumber", context.commitNumber());
    line.put("reason", context.reason());
    line.put("commitTime", context.commitTime().toString());
    context.watermark().ifPresent(w -> line.put("watermarkPassed", w.toString()));
    ArrayNode visible = line.putArray("visibleFiles");
    long rows = 0;
    for (CommittedFile file : PartitionFiles.visibleDataFiles(context.partitionDirectory())) {
      visible.add(file.name());
      rows += lines(Path.of(file.path()));
    }
    line.put("visibleRows", rows);
    ArrayNode listed = line.putArray("contextFiles");
    context.files().forEach(f -> listed.add(f.name()));
    byte[] bytes = (JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8);
    synchronized (LOCK) {
      Files.write(
          logOf(context.tableRoot()), bytes, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
  }

  private static long lines(Path file) throws IOException {
    try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
      return lines.filter(l -> !l.isBlank()).count();
    }
  }
}
