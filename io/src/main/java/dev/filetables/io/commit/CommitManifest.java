package dev.filetables.io.commit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The JSON a success file carries with {@code sink.partition-commit.success-file.manifest = true}:
 * which data files make up the committed partition, so a reader can check it has all of them.
 *
 * <pre>{@code
 * {
 *   "version" : 1,
 *   "table" : "events",
 *   "partition" : { "dt" : "2020-05-20", "hour" : "12" },
 *   "partitionPath" : "dt=2020-05-20/hour=12",
 *   "partitionTime" : "2020-05-20T12:00",            // local time; null if it cannot be extracted
 *   "watermark" : "2020-05-20T05:00:00Z",           // the watermark had passed this; null for process-time
 *   "commitTime" : "2020-05-20T05:00:03.120Z",
 *   "commitNumber" : 1,                              // 2, 3, ... after late data
 *   "reason" : "partition-time",
 *   "fileCount" : 2, "sizeBytes" : 2048, "rowCount" : 100,   // rowCount null if a file's is unknown
 *   "files" : [ { "name" : "part-…-0-0.csv", "sizeBytes" : 1024, "rowCount" : 50 }, … ]
 * }
 * }</pre>
 *
 * Files are named relative to the partition directory, so the manifest stays true when the table is
 * copied or moved. {@link #verify} compares a manifest with a directory.
 */
public final class CommitManifest {
  public static final int VERSION = 1;
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** One file entry: name in the partition directory, size, rows (empty when unknown). */
  public static final class Entry {
    public final String name;
    public final long sizeBytes;
    public final OptionalLong rowCount;

    Entry(String name, long sizeBytes, OptionalLong rowCount) {
      this.name = name;
      this.sizeBytes = sizeBytes;
      this.rowCount = rowCount;
    }
  }

  private final JsonNode root;
  private final Map<String, Entry> files;

  private CommitManifest(JsonNode root, Map<String, Entry> files) {
    this.root = root;
    this.files = files;
  }

  /** The manifest text for a commit. */
  static String toJson(PartitionCommitContext context) {
    ObjectNode root = JSON.createObjectNode();
    root.put("version", VERSION);
    root.put("table", context.tableName());
    ObjectNode partition = root.putObject("partition");
    context.partition().forEach(partition::put);
    root.put("partitionPath", context.partitionPath());
    root.put("partitionTime", context.partitionTime().map(Object::toString).orElse(null));
    root.put("watermark", context.watermark().map(Object::toString).orElse(null));
    root.put("commitTime", context.commitTime().toString());
    root.put("commitNumber", context.commitNumber());
    root.put("reason", context.reason());
    root.put("fileCount", context.files().size());
    root.put("sizeBytes", context.files().stream().mapToLong(CommittedFile::sizeBytes).sum());
    OptionalLong rows = context.rowCount();
    if (rows.isPresent()) {
      root.put("rowCount", rows.getAsLong());
    } else {
      root.putNull("rowCount");
    }
    ArrayNode list = root.putArray("files");
    for (CommittedFile file : context.files()) {
      ObjectNode entry = list.addObject();
      entry.put("name", file.name());
      entry.put("sizeBytes", file.sizeBytes());
      if (file.rowCount().isPresent()) {
        entry.put("rowCount", file.rowCount().getAsLong());
      } else {
        entry.putNull("rowCount");
      }
    }
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write a commit manifest", e);
    }
  }

  /** Parses a manifest; an {@link IOException} names the file when it is not one. */
  public static CommitManifest read(Path successFile) throws IOException {
    String text = new String(Files.readAllBytes(successFile), StandardCharsets.UTF_8);
    try {
      return parse(text);
    } catch (IOException | RuntimeException e) {
      throw new IOException(
          successFile + " is not a FileTables commit manifest: " + e.getMessage(), e);
    }
  }

  public static CommitManifest parse(String text) throws IOException {
    JsonNode root = JSON.readTree(text);
    if (root == null || !root.isObject() || !root.path("files").isArray()) {
      throw new IOException("expected a JSON object with a 'files' array");
    }
    Map<String, Entry> files = new LinkedHashMap<>();
    for (JsonNode file : root.get("files")) {
      JsonNode rows = file.path("rowCount");
      files.put(
          file.path("name").asText(),
          new Entry(
              file.path("name").asText(),
              file.path("sizeBytes").asLong(-1),
              rows.isIntegralNumber() ? OptionalLong.of(rows.asLong()) : OptionalLong.empty()));
    }
    return new CommitManifest(root, Collections.unmodifiableMap(files));
  }

  /** File name → entry, in manifest order. */
  public Map<String, Entry> files() {
    return files;
  }

  public int commitNumber() {
    return root.path("commitNumber").asInt();
  }

  public String partitionPath() {
    return root.path("partitionPath").asText();
  }

  public String commitTime() {
    return root.path("commitTime").asText();
  }

  /** The whole manifest as parsed JSON. */
  public JsonNode json() {
    return root;
  }

  /**
   * What differs between this manifest and the visible data files of {@code partitionDirectory}: a
   * listed file that is missing or has another size, and a visible data file that is not listed.
   * Empty when the directory holds exactly the committed files.
   */
  public List<String> verify(Path partitionDirectory) throws IOException {
    List<String> problems = new ArrayList<>();
    Map<String, CommittedFile> present = new LinkedHashMap<>();
    for (CommittedFile file : PartitionFiles.visibleDataFiles(partitionDirectory)) {
      present.put(file.name(), file);
    }
    for (Entry entry : files.values()) {
      CommittedFile file = present.get(entry.name);
      if (file == null) {
        problems.add("missing file " + entry.name);
      } else if (file.sizeBytes() != entry.sizeBytes) {
        problems.add(
            "file "
                + entry.name
                + " has "
                + file.sizeBytes()
                + " bytes, the manifest says "
                + entry.sizeBytes);
      }
    }
    for (String name : present.keySet()) {
      if (!files.containsKey(name)) {
        problems.add("file " + name + " is not in the manifest");
      }
    }
    return problems;
  }
}
