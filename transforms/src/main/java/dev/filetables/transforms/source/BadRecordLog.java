package dev.filetables.transforms.source;

import org.apache.beam.sdk.annotations.Internal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs skipped and dead-lettered records with their provenance at a bounded rate per JVM: the first
 * {@link #PER_MINUTE} of each minute, then one line saying how many were not logged. A feed with
 * millions of bad records must not drown the workers' logs; the metrics still count them all.
 */
@Internal
public final class BadRecordLog {
  static final int PER_MINUTE = 20;
  private static final Logger LOG = LoggerFactory.getLogger(BadRecordLog.class);

  private static long windowStartMillis;
  private static int loggedInWindow;
  private static long suppressed;

  private BadRecordLog() {}

  public static void warn(String message) {
    long now = System.currentTimeMillis();
    long notLogged;
    synchronized (BadRecordLog.class) {
      if (now - windowStartMillis >= 60_000) {
        windowStartMillis = now;
        loggedInWindow = 0;
      }
      if (loggedInWindow >= PER_MINUTE) {
        suppressed++;
        return;
      }
      loggedInWindow++;
      notLogged = suppressed;
      suppressed = 0;
    }
    if (notLogged > 0) {
      LOG.warn(
          "{} more bad record(s) were not logged (at most {} per minute)", notLogged, PER_MINUTE);
    }
    LOG.warn(message);
  }
}
