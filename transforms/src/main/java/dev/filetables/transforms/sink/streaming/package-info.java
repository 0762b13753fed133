/**
 * The streaming writers: {@code StreamingWrite} wires the stages; {@code AssignWritersFn} keys rows
 * by writer and batches them; {@code RollingWriterFn} keeps at most one open part file per writer
 * key ({@code OpenFile}, in state: names, never rows) and closes it by {@code RollingPolicy};
 * closed files go on, still hidden, to {@code sink.publish}. The writer owns state and timers and
 * delegates the rest: {@code BundleSegments} (a bundle's segments), {@code RollSchedule} (when
 * files roll), {@code ClosesAtBundleEnd} (roll at the commit point), {@code PartFileFinisher}
 * (segments into the hidden part file), {@code LeftoverFiles} (files of failed attempts). Internal.
 */
package dev.filetables.transforms.sink.streaming;
