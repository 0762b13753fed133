/**
 * The streaming writers: {@code StreamingWrite} wires the stages; {@code AssignWritersFn} keys rows
 * by writer and batches them; {@code RollingWriterFn} keeps at most one open part file per writer
 * key ({@code OpenFile}, in state: names, never rows) and closes it by {@code RollingPolicy};
 * closed files go on, still hidden, to {@code sink.publish}. Internal.
 */
package dev.filetables.transforms.sink.streaming;
