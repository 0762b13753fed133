package dev.filetables.pipelines.sql;

import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneId;
import org.apache.beam.sdk.extensions.sql.BeamSqlUdf;

/**
 * Flink's {@code CURRENT_TIMESTAMP} / {@code NOW()} (TIMESTAMP_LTZ), {@code LOCALTIMESTAMP}
 * (TIMESTAMP) and {@code CURRENT_DATE}, all in the session time zone, evaluated per row (Flink's
 * streaming behaviour; Flink's batch mode evaluates them once per query). {@link FlinkSqlRewriter}
 * turns the SQL keywords into these functions with the zone as argument.
 */
final class CurrentTimeFunctions {
  private CurrentTimeFunctions() {}

  /** Now, as the wall-clock time in the zone: CURRENT_TIMESTAMP, NOW(), LOCALTIMESTAMP. */
  public static final class Now implements BeamSqlUdf {
    public static Timestamp eval(String zone) {
      return SqlTimes.toTimestamp(SqlTimes.wallClock(Instant.now(), ZoneId.of(zone)));
    }
  }

  /** Today in the zone: CURRENT_DATE. */
  public static final class Today implements BeamSqlUdf {
    public static Date eval(String zone) {
      return Date.valueOf(java.time.LocalDate.now(ZoneId.of(zone)));
    }
  }
}
