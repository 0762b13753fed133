package dev.filetables.pipelines.sql;

import java.time.ZoneId;
import org.apache.beam.sdk.annotations.Internal;

/**
 * One job of a script: a run of consecutive INSERT statements ({@link InsertJob}, one job as in a
 * Flink statement set) or one SELECT ({@link SelectJob}).
 */
@Internal
public sealed interface SqlJob permits InsertJob, SelectJob {
  /** For messages: what the job runs and where it is in the script. */
  String describe();

  /** The session time zone of the job's statements. */
  ZoneId timeZone();
}
