package dev.filetables.transforms.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.io.table.WatermarkSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimeZoneCheckTest {
  private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

  @TempDir Path root;

  private TableSpec table(String watermarkColumn, String... options) {
    TableSpec table = CommitTestSupport.hourly(root, options);
    return table.toBuilder()
        .setWatermark(WatermarkSpec.of(watermarkColumn, Duration.ofSeconds(5)))
        .build();
  }

  @Test
  void ltzWatermarkWithUtcCommitZoneInShanghaiNamesTheEightHourTrap() {
    Optional<String> warning =
        TimeZoneCheck.eightHourTrap(
            table("log_ts", TableOptions.COMMIT_TRIGGER, "partition-time"), SHANGHAI);
    assertTrue(warning.isPresent());
    assertTrue(warning.get().contains("8-hour trap"), warning.get());
    assertTrue(warning.get().contains("committed 8 hours late"), warning.get());
    assertTrue(
        warning.get().contains("'sink.partition-commit.watermark-time-zone' = 'Asia/Shanghai'"),
        warning.get());
  }

  @Test
  void zonesBehindUtcCommitEarly() {
    Optional<String> warning =
        TimeZoneCheck.eightHourTrap(
            table("log_ts", TableOptions.COMMIT_TRIGGER, "partition-time"), ZoneId.of("GMT-05:00"));
    assertTrue(warning.get().contains("5 hours early, before its data is complete"), warning.get());
  }

  @Test
  void noWarningWhenTheSetupIsConsistent() {
    // the zone is set
    assertEquals(
        Optional.empty(),
        TimeZoneCheck.eightHourTrap(
            table(
                "log_ts",
                TableOptions.COMMIT_TRIGGER,
                "partition-time",
                TableOptions.COMMIT_WATERMARK_TIME_ZONE,
                "Asia/Shanghai"),
            SHANGHAI));
    // the session is UTC
    assertEquals(
        Optional.empty(),
        TimeZoneCheck.eightHourTrap(
            table("log_ts", TableOptions.COMMIT_TRIGGER, "partition-time"), ZoneId.of("UTC")));
    // process-time commits do not use the zone
    assertEquals(Optional.empty(), TimeZoneCheck.eightHourTrap(table("log_ts"), SHANGHAI));
    // partition values derived in the watermark zone
    assertEquals(
        Optional.empty(),
        TimeZoneCheck.eightHourTrap(
            table(
                "log_ts",
                TableOptions.COMMIT_TRIGGER,
                "partition-time",
                TableOptions.PARTITION_DERIVE_TIME_COLUMN,
                "log_ts",
                TableOptions.TIME_EXTRACTOR_PATTERN,
                "$dt $hour:00:00"),
            SHANGHAI));
    // no watermark
    assertEquals(
        Optional.empty(),
        TimeZoneCheck.eightHourTrap(
            CommitTestSupport.hourly(root, TableOptions.COMMIT_TRIGGER, "partition-time"),
            SHANGHAI));
  }
}
