// Package teachingtest holds the contract suites of ports/teaching, the contracts the teaching
// views read the stores through: RunLocate (Locator), RunSizes (RowSizer), RunClaims
// (NameClaims, raced by teaching.Race), RunQueryLab (QueryLab), RunProgress (ProgressStore) and RunClassBook (ClassBook).
// Every adapter runs them beside ports/porttest's.
package teachingtest
