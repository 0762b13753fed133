/**
 * What the transforms rely on from Beam 2.62 runners and work around: whether a bundle is in a
 * completed Flink checkpoint ({@code CheckpointMarks}), when checkpoints complete ({@code
 * CheckpointClock}), releasing a timer's watermark hold ({@code TimerHolds}), whether a writer's
 * process was frozen long enough to lose its task ({@code ProcessPauses}) and the runner options
 * the streaming sink checks ({@code SinkRunnerOptions}). Internal.
 */
package dev.filetables.transforms.runner;
