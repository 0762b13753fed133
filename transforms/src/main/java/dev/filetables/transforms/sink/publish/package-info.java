/**
 * What makes a closed file visible: a step keyed by partition keeps the closed hidden files and
 * publishes each group once the checkpoint that covers it is durable ({@code DurablePublish}: a
 * group per file, a rename; {@code AutoCompaction}: groups by size and delay, merged first). The
 * grouping and publishing step is {@code GroupFilesFn}; the idempotent file operations {@code
 * PartitionCompactor}; the last stretch of a finite stream is prepared as intents and published at
 * the final checkpoint or by the post-job publish ({@code EndOfInputIntents}). Internal.
 */
package dev.filetables.transforms.sink.publish;
