// Package teachingtest holds the contract suites of ports/teaching, the contracts the teaching
// views read the stores through: RunLocate (Locator), RunSizes (RowSizer) and RunClaims
// (NameClaims, raced by teaching.Race) and RunQueryLab (QueryLab). Every adapter runs them beside
// ports/porttest's.
package teachingtest
