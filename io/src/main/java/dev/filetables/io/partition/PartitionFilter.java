package dev.filetables.io.partition;

import java.io.Serializable;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.schemas.Schema;

/**
 * A predicate on partition columns, used to prune directories before they are listed.
 *
 * <p>{@link #parse} accepts a SQL-like expression over partition columns ({@code dt='2020-05-20'
 * AND hour='12'}; =, &lt;&gt;, !=, &lt;, &lt;=, &gt;, &gt;=, [NOT] IN (...), IS [NOT] NULL, AND,
 * OR, NOT, parentheses; literals 'text', numbers, TRUE, FALSE, NULL, DATE '2020-05-20', TIMESTAMP
 * '2020-05-20 12:00:00'; names plain or `back-quoted`), comparing typed values per the schema
 * ({@code hour = '9'} on an INT column compares 9 numerically). A column that is not a partition
 * key is an error naming the partition keys.
 *
 * <p>SQL null semantics: a comparison with a null (default) partition value is unknown, and a
 * partition is kept only if the filter is true; IS [NOT] NULL tests the default partition. {@link
 * #test} may be called with a prefix of the keys (while walking directories level by level): a
 * comparison on a key not yet present could be anything, so it answers false only if no completion
 * can match. A directory value that does not parse as its column's type is kept (the reader reports
 * it) rather than silently pruned.
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

  /**
   * Parses a filter over the partition columns {@code partitionKeys} of {@code schema}; a {@link
   * dev.filetables.io.table.TableDefinitionException} names the position of a syntax error, a
   * literal that does not fit its column's type, or a column that is not a partition key.
   */
  static PartitionFilter parse(
      String expression, Schema schema, java.util.List<String> partitionKeys) {
    return new ParsedPartitionFilter(
        PartitionFilterParser.parse(expression, schema, partitionKeys), partitionKeys);
  }
}
