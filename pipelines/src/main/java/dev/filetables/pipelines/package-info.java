/**
 * The {@code filetables} command line: {@link dev.filetables.pipelines.FileTablesCli} with one
 * picocli command class per command ({@code run}, {@code query}, {@code demo}, {@code compact},
 * {@code publish-leftovers}, {@code bench}, {@code job}), each building its pipeline from table
 * definitions ({@code TableFiles}) with {@code FileTableIO} and running it on the runner its
 * options and presets choose ({@code RunnerOptions}, {@code RunnerPresets}); a streaming {@code
 * run} on Flink resumes from its run's state directory ({@code ResumableRun}); and {@link
 * dev.filetables.pipelines.OrdersStreamJob}, the streaming job a Flink cluster runs. Public: those
 * two entry points (with {@code OrdersStreamJob.Options}, which Beam needs public). Everything else
 * is package-private, except what the benchmarks and tests reuse: {@code OrdersDataset}, {@code
 * RunnerOptions} and {@code RunnerPresets} ({@code @Internal}).
 */
package dev.filetables.pipelines;
