// Package teaching declares what the teaching views read the stores through, so that the web
// layer shows any model without importing an adapter: where a record lives (Locator), the rows
// of the 0.6 model and the partitions of CQL3 as they are stored (WideRowInspector,
// CQLInspector), the widest rows (RowSizer), the comparator and slice lab's scratch keyspace
// (ColumnLab), the uniqueness race's sandbox (NameClaims, raced by Race), and the query-first
// lesson's scratch tables (QueryLab).
//
// The use cases never use these: they are optional for a store, and every adapter implements
// them. ports/teachingtest holds their contract suites, beside ports/porttest's.
package teaching
