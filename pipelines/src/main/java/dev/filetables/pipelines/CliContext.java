package dev.filetables.pipelines;

import java.io.PrintStream;

/** Where a command prints, and whether a person is watching (progress lines only on a terminal). */
final class CliContext {
  private final PrintStream out;
  private final PrintStream err;
  private final boolean terminal;
  private final RunnerPresets presets;

  CliContext(PrintStream out, PrintStream err, boolean terminal, RunnerPresets presets) {
    this.out = out;
    this.err = err;
    this.terminal = terminal;
    this.presets = presets;
  }

  PrintStream out() {
    return out;
  }

  PrintStream err() {
    return err;
  }

  boolean terminal() {
    return terminal;
  }

  RunnerPresets presets() {
    return presets;
  }

  /** A note for the user on stderr, so stdout carries only results. */
  void note(String message) {
    err.println("filetables: " + message);
  }
}
