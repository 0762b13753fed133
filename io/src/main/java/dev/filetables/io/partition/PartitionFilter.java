package dev.filetables.io.partition;

import java.io.Serializable;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.schemas.Schema;

/**
 * A predicate on partition columns, used to prune directories before they are listed.
 *
 * <p>SKELETON – contract: {@link #parse} accepts a SQL-like expression over partition columns
 * ({@code dt='2020-05-20' AND hour='12'}; =, &lt;&gt;, !=, &lt;, &lt;=, &gt;, &gt;=, IN (...), IS [NOT] NULL,
 * AND, OR, NOT, parentheses), comparing typed values per the schema. A column that is not a partition
 * key is an error naming the partition keys. {@link #test} may be called with a prefix of the keys
 * (while walking directories level by level): it answers false only if no completion can match.
 */
public interface PartitionFilter extends Serializable {

  /** Raw values by key (null = default partition); may hold only the outer keys. */
  boolean test(Map<String, String> partialPartition);

  /** The partition keys this filter reads. */
  Set<String> referencedKeys();

  static PartitionFilter all() {
    return new PartitionFilter() {
      private static final long serialVersionUID = 1L;

      @Override
      public boolean test(Map<String, String> partialPartition) {
        return true;
      }

      @Override
      public Set<String> referencedKeys() {
        return Set.of();
      }

      @Override
      public String toString() {
        return "TRUE";
      }
    };
  }

  static PartitionFilter parse(String expression, Schema schema, java.util.List<String> partitionKeys) {
    throw new UnsupportedOperationException("TODO");
  }
}
