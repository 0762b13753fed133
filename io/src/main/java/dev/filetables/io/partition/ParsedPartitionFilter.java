package dev.filetables.io.partition;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A {@link PartitionFilter} parsed from an expression; see {@link PartitionFilter#parse}. */
final class ParsedPartitionFilter implements PartitionFilter {
  private static final long serialVersionUID = 1L;

  private final FilterNode root;
  private final Set<String> referencedKeys;

  ParsedPartitionFilter(FilterNode root, List<String> partitionKeys) {
    this.root = root;
    List<String> used = new ArrayList<>();
    root.collectKeys(used);
    Set<String> ordered = new LinkedHashSet<>();
    for (String key : partitionKeys) {
      if (used.contains(key)) {
        ordered.add(key);
      }
    }
    this.referencedKeys = Collections.unmodifiableSet(ordered);
  }

  @Override
  public boolean test(Map<String, String> partialPartition) {
    return (root.eval(partialPartition) & FilterNode.TRUE) != 0;
  }

  @Override
  public Set<String> referencedKeys() {
    return referencedKeys;
  }

  @Override
  public String toString() {
    return root.sql();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ParsedPartitionFilter && other.toString().equals(toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }
}
