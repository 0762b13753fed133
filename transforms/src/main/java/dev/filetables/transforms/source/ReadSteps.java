package dev.filetables.transforms.source;

import java.io.Serializable;
import org.apache.beam.sdk.annotations.Internal;
import org.apache.beam.sdk.values.PInput;

/**
 * The steps of a read ({@code ReadRanges.ReadRows}, {@code WatchedRead}, the Kafka source's {@code
 * DecodeValues}), applied by the step that wires the read rather than wrapped in a step of their
 * own: the dead-letter write ({@code WriteDeadLetters}) has always sat beside them under one step,
 * and step names are the Flink operator uids that savepoints are restored by.
 */
@Internal
public interface ReadSteps<InputT extends PInput> extends Serializable {
  /** Applies the read's steps to {@code input}, within the step being expanded. */
  ReadResult applyTo(InputT input);
}
