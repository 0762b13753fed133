package dev.filetables.pipelines;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.flink.api.common.JobID;

/**
 * Gives the next job of a run an id chosen before it is submitted, so {@code run.json} names the
 * job before it can write anything (a {@code kill -9} right after the submission leaves no job the
 * run does not know). Beam 2.62's FlinkRunner builds a remote submission's Flink configuration from
 * {@code --flinkConfDir}; Flink takes the job id from its {@code $internal.pipeline.job-id}. So
 * this writes a configuration directory holding the user's own Flink configuration (from {@code
 * --flinkConfDir} or {@code FLINK_CONF_DIR}, if any) plus that key, for {@code --flinkConfDir}.
 */
final class FixedJobId {
  static final String KEY = "$internal.pipeline.job-id";
  private static final String STANDARD = "config.yaml";
  private static final String LEGACY = "flink-conf.yaml";

  private FixedJobId() {}

  /** A new random job id, as Flink writes them (32 hex digits). */
  static String next() {
    return new JobID().toHexString();
  }

  /**
   * Writes {@code dir/config.yaml} (or {@code flink-conf.yaml} when the user's configuration is of
   * that legacy kind) with the user's configuration and {@code jobId}; returns {@code dir}.
   */
  static Path write(Path dir, String jobId, Optional<String> userConfDir) throws IOException {
    Files.createDirectories(dir);
    Files.deleteIfExists(dir.resolve(STANDARD));
    Files.deleteIfExists(dir.resolve(LEGACY));
    String base = "";
    String file = STANDARD;
    if (userConfDir.isPresent()) {
      Path user = Path.of(userConfDir.get());
      if (Files.isRegularFile(user.resolve(STANDARD))) {
        base = Files.readString(user.resolve(STANDARD), StandardCharsets.UTF_8);
      } else if (Files.isRegularFile(user.resolve(LEGACY))) {
        base = Files.readString(user.resolve(LEGACY), StandardCharsets.UTF_8);
        file = LEGACY;
      }
    }
    // standard YAML would read an id of digits only as a number: quote it there; the legacy
    // format takes everything after ": " literally
    String value = file.equals(STANDARD) ? "\"" + jobId + "\"" : jobId;
    String text =
        base + (base.isEmpty() || base.endsWith("\n") ? "" : "\n") + KEY + ": " + value + "\n";
    Files.writeString(dir.resolve(file), text, StandardCharsets.UTF_8);
    return dir;
  }

  /** The Flink configuration directory the user chose: {@code --flinkConfDir} or the variable. */
  static Optional<String> userConfDir(String flinkConfDirOption) {
    if (flinkConfDirOption != null && !flinkConfDirOption.isBlank()) {
      return Optional.of(flinkConfDirOption);
    }
    String variable = System.getenv("FLINK_CONF_DIR");
    return variable == null || variable.isBlank() ? Optional.empty() : Optional.of(variable);
  }
}
