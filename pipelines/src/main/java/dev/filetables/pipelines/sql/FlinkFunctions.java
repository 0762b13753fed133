package dev.filetables.pipelines.sql;

import java.util.List;
import org.apache.beam.sdk.extensions.sql.BeamSqlUdf;
import org.apache.beam.sdk.extensions.sql.SqlTransform;

/**
 * Flink's functions that Beam SQL lacks or computes differently, registered as Beam SQL user
 * functions under Flink's names. Several classes may share a name (overloads by argument type).
 * Functions that need the session time zone or a default argument reach these through {@link
 * FlinkSqlRewriter}, which adds them to each call.
 */
final class FlinkFunctions {
  /** Names the rewriter gives {@code UNIX_TIMESTAMP()}, {@code CURRENT_TIMESTAMP}, .... */
  static final String NOW = "FLINK_NOW";

  static final String TODAY = "FLINK_TODAY";
  static final String UNIX_TIMESTAMP_NOW = "FLINK_UNIX_TIMESTAMP_NOW";

  private record Function(String name, Class<? extends BeamSqlUdf> implementation) {}

  private static final List<Function> ALL =
      List.of(
          new Function("DATE_FORMAT", DateFormatFunctions.OfTimestamp.class),
          new Function("DATE_FORMAT", DateFormatFunctions.OfString.class),
          new Function("TO_TIMESTAMP", TimestampParseFunctions.ToTimestamp.class),
          new Function("TO_TIMESTAMP_LTZ", EpochFunctions.ToTimestampLtz.class),
          new Function("FROM_UNIXTIME", EpochFunctions.FromUnixtime.class),
          new Function("UNIX_TIMESTAMP", EpochFunctions.UnixTimestamp.class),
          new Function(UNIX_TIMESTAMP_NOW, EpochFunctions.UnixTimestampNow.class),
          new Function(NOW, CurrentTimeFunctions.Now.class),
          new Function(TODAY, CurrentTimeFunctions.Today.class));

  private FlinkFunctions() {}

  /** The query with every function registered. */
  static SqlTransform registeredIn(SqlTransform query) {
    for (Function function : ALL) {
      query = query.registerUdf(function.name(), function.implementation());
    }
    return query;
  }
}
