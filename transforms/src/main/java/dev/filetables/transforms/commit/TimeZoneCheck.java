package dev.filetables.transforms.commit;

import dev.filetables.io.table.ColumnType;
import dev.filetables.io.table.TableOptions;
import dev.filetables.io.table.TableSpec;
import dev.filetables.io.table.WatermarkSpec;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * Spots the "8-hour problem" of partition-time commits: the watermark column is TIMESTAMP_LTZ, the
 * session renders local times in a zone such as Asia/Shanghai (so partition values such as {@code
 * DATE_FORMAT(ts, 'HH')} are Shanghai times), but {@code sink.partition-commit.watermark-time-zone}
 * is left at UTC. Each partition's local time is then read as UTC: in Shanghai (+08:00) every
 * partition commits 8 hours late; in a zone behind UTC it commits hours <em>early</em>, before its
 * data is complete. Derived partition values ({@code sink.partition-derive.time-column}) are
 * immune: they are computed in the watermark time zone.
 */
final class TimeZoneCheck {
  private TimeZoneCheck() {}

  /** The warning to log, if the table is set up for the trap. */
  static Optional<String> eightHourTrap(TableSpec table, ZoneId sessionZone) {
    TableOptions options = table.options();
    if (!options.commitTrigger().equals(PartitionTimeTrigger.NAME)) {
      return Optional.empty();
    }
    Optional<WatermarkSpec> watermark = table.watermark();
    if (watermark.isEmpty() || !table.schema().hasField(watermark.get().column())) {
      return Optional.empty();
    }
    String column = watermark.get().column();
    if (ColumnType.of(table.schema().getField(column).getType()) != ColumnType.TIMESTAMP_LTZ) {
      return Optional.empty();
    }
    if (options.partitionDeriveTimeColumn().isPresent()) {
      return Optional.empty();
    }
    ZoneId commitZone = options.watermarkTimeZone();
    if (!isUtc(commitZone) || isUtc(sessionZone)) {
      return Optional.empty();
    }
    ZoneOffset offset = sessionZone.getRules().getOffset(Instant.now());
    int minutes = offset.getTotalSeconds() / 60;
    String hours =
        Math.abs(minutes) % 60 == 0
            ? Math.abs(minutes) / 60 + "-hour"
            : Math.abs(minutes) + "-minute";
    String effect =
        minutes > 0
            ? "every partition is committed " + hours.replace("-", " ") + "s late"
            : minutes < 0
                ? "every partition is committed "
                    + hours.replace("-", " ")
                    + "s early, before its data is complete"
                : "partitions are committed at the wrong time whenever "
                    + sessionZone
                    + " is off UTC";
    return Optional.of(
        "Table `"
            + table.name()
            + "`: the watermark column `"
            + column
            + "` is TIMESTAMP_LTZ and '"
            + TableOptions.COMMIT_WATERMARK_TIME_ZONE
            + "' is "
            + commitZone
            + ", but the session time"
            + " zone is "
            + sessionZone
            + " ("
            + offset
            + "). If partition values hold local times of"
            + " the session zone (e.g. DATE_FORMAT("
            + column
            + ", 'yyyy-MM-dd')), "
            + effect
            + " (the "
            + hours
            + " trap, known from Flink in Asia/Shanghai). Set '"
            + TableOptions.COMMIT_WATERMARK_TIME_ZONE
            + "' = '"
            + sessionZone
            + "', or derive partition"
            + " values with '"
            + TableOptions.PARTITION_DERIVE_TIME_COLUMN
            + "' = '"
            + column
            + "'.");
  }

  private static boolean isUtc(ZoneId zone) {
    ZoneId normalized = zone.normalized();
    return normalized instanceof ZoneOffset && ((ZoneOffset) normalized).getTotalSeconds() == 0;
  }
}
