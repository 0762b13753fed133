/**
 * Test support shared by the modules' tests, not product code: {@code AllTypes}, the one "all
 * types" table schema with its special and random rows; public for the other modules' tests alone
 * ({@code @Internal}).
 *
 * <p>It lives in io's tests (io's own format tests need it) and reaches the other modules as io's
 * test jar, which holds only this package: a module that uses it declares {@code filetables-io}
 * with {@code <type>test-jar</type>} and {@code <scope>test</scope>}. (test-fixtures depends on io,
 * so io's tests cannot use a class from there.)
 */
package dev.filetables.io.testing;
