package dev.filetables.io.table;

/**
 * One problem found while validating table options: the key it concerns ({@code null} when it
 * concerns no single key) and a message that names key, value and what is allowed. Kept separate
 * from the exception so that the DDL parser can point at the line of the offending key.
 */
record OptionProblem(String key, String message) {}
