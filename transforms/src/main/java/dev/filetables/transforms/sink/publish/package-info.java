/**
 * What makes a closed file visible: a step keyed by partition keeps the closed hidden files and
 * publishes each sealed group once the checkpoint that covers it is durable ({@code
 * DurablePublish}: a group per file, a rename; {@code AutoCompaction}: groups by size and delay,
 * merged first, with {@code sink.compact}). The step is {@code GroupFilesFn}; the groups waiting
 * for their checkpoint are {@code SealedGroups}; {@code GroupPublisher} publishes a durable group.
 * The last stretch of a finite stream is prepared as intents and published at the final checkpoint
 * ({@code FinalCheckpointPublisher}, {@code EndOfInputIntents}; a failed attempt's intents are
 * deleted by {@code EarlierIntents}) or by the post-job publish ({@code
 * EndOfInputIntents.recover}). Internal.
 */
package dev.filetables.transforms.sink.publish;
