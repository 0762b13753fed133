/**
 * The watched read ({@code source.monitor-interval}): one splittable DoFn per shard lists the table
 * and reads new files ({@code WatchAndReadFn}); its restriction ({@code WatchRestriction}) is the
 * exactly-once memory of what was emitted; {@code WatchedRead} wires it. Internal.
 */
package dev.filetables.transforms.source.watch;
