package teach

import (
	"regexp"
	"slices"
	"strings"
)

// A Chebotko diagram of the CQL3 schema, drawn from the cql3 adapter's migrations as the server
// applies them: each table with its partition key (K), its clustering columns and their order
// (C↑, C↓), its static columns (S) and the rest, and an arrow from each access pattern of the
// seeds' action list to the tables that serve it. A test holds the parse to the live schema of
// a real node.

type chebCol struct {
	Name, Type, Mark string // Mark: K, C↑, C↓, S or ""
}

type chebTable struct {
	Name string
	Cols []chebCol
}

var (
	ddlComment = regexp.MustCompile(`--[^\n]*`)
	ddlCreate  = regexp.MustCompile(`(?is)^CREATE TABLE (?:IF NOT EXISTS )?(\w+)\s*\((.*)$`)
	ddlAlter   = regexp.MustCompile(`(?is)^ALTER TABLE (\w+) ADD \(?(.*?)\)?$`)
	ddlOrder   = regexp.MustCompile(`(?i)CLUSTERING ORDER BY \(([^)]*)\)`)
)

// splitTop splits s on sep outside parentheses and angle brackets.
func splitTop(s string, sep rune) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '<':
			depth++
		case ')', '>':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// parseSchema reads the tables of CQL DDL (CREATE TABLE and ALTER TABLE ... ADD), in the order
// they are created; each table's columns in key order, then the others in the order declared.
func parseSchema(ddl string) []chebTable {
	var tables []chebTable
	index := map[string]int{}
	for _, stmt := range strings.Split(ddlComment.ReplaceAllString(ddl, ""), ";") {
		stmt = strings.Join(strings.Fields(stmt), " ")
		if m := ddlCreate.FindStringSubmatch(stmt); m != nil {
			// m[2] is the column list, its closing parenthesis, then the table's options.
			end, depth := len(m[2]), 1
			for i, r := range m[2] {
				if r == '(' {
					depth++
				} else if r == ')' {
					if depth--; depth == 0 {
						end = i
						break
					}
				}
			}
			m = []string{m[0], m[1], m[2][:end], m[2][min(end+1, len(m[2])):]}
			t := chebTable{Name: m[1]}
			types := map[string]string{}
			var order, pk, ck []string
			statics := map[string]bool{}
			for _, part := range splitTop(m[2], ',') {
				if rest, ok := strings.CutPrefix(strings.ToUpper(part), "PRIMARY KEY"); ok {
					keys := splitTop(strings.Trim(strings.TrimSpace(part[len(part)-len(rest):]), "()"), ',')
					if len(keys) > 0 {
						pk = splitTop(strings.Trim(keys[0], "()"), ',')
						ck = keys[1:]
					}
					continue
				}
				f := strings.Fields(part)
				if len(f) < 2 {
					continue
				}
				name, typ := f[0], strings.Join(f[1:], " ")
				if before, _, ok := strings.Cut(strings.ToUpper(typ), " PRIMARY KEY"); ok {
					typ, pk = typ[:len(before)], []string{name}
				}
				if before, _, ok := strings.Cut(strings.ToUpper(typ), " STATIC"); ok {
					typ, statics[name] = typ[:len(before)], true
				}
				types[name] = typ
				order = append(order, name)
			}
			desc := map[string]bool{}
			if o := ddlOrder.FindStringSubmatch(m[3]); o != nil {
				for _, c := range splitTop(o[1], ',') {
					if f := strings.Fields(c); len(f) == 2 && strings.EqualFold(f[1], "DESC") {
						desc[f[0]] = true
					}
				}
			}
			for _, k := range pk {
				t.Cols = append(t.Cols, chebCol{Name: k, Type: types[k], Mark: "K"})
			}
			for _, c := range ck {
				mark := "C↑"
				if desc[c] {
					mark = "C↓"
				}
				t.Cols = append(t.Cols, chebCol{Name: c, Type: types[c], Mark: mark})
			}
			for _, c := range order {
				if slices.Contains(pk, c) || slices.Contains(ck, c) {
					continue
				}
				mark := ""
				if statics[c] {
					mark = "S"
				}
				t.Cols = append(t.Cols, chebCol{Name: c, Type: types[c], Mark: mark})
			}
			index[t.Name] = len(tables)
			tables = append(tables, t)
			continue
		}
		if m := ddlAlter.FindStringSubmatch(stmt); m != nil {
			i, ok := index[m[1]]
			if !ok {
				continue
			}
			for _, part := range splitTop(m[2], ',') {
				if f := strings.Fields(part); len(f) >= 2 {
					col := chebCol{Name: f[0], Type: strings.Join(f[1:], " ")}
					if before, _, ok := strings.Cut(strings.ToUpper(col.Type), " STATIC"); ok {
						col.Type, col.Mark = col.Type[:len(before)], "S"
					}
					tables[i].Cols = append(tables[i].Cols, col)
				}
			}
		}
	}
	return tables
}

// The diagram's layout, in SVG units.
const (
	chebRow    = 16
	chebHead   = 22
	chebGap    = 14
	chebQX     = 8
	chebQW     = 210
	chebTableX = 330
	chebTableW = 330
)

type chebBox struct {
	chebTable
	Y, H int
	Rows []chebRowPos
}

type chebRowPos struct {
	chebCol
	Y int
}

type chebQuery struct {
	ID, What string
	Y        int
}

type chebArrow struct {
	X1, Y1, X2, Y2 int
	Query          string
}

type chebDiagram struct {
	Tables        []chebBox
	Queries       []chebQuery
	Arrows        []chebArrow
	Width, Height int
	QX, QW        int
	TX, TW        int
}

// chebotko lays the tables out in one column, the access patterns in another, and an arrow from
// each pattern to each table that serves it. Tables that no pattern reads come last.
func chebotko(ddl string) chebDiagram {
	tables := parseSchema(ddl)
	used := map[string]int{}
	for i, q := range accessPatterns {
		for _, t := range q.Tables {
			if _, ok := used[t]; !ok {
				used[t] = i
			}
		}
	}
	slices.SortStableFunc(tables, func(a, b chebTable) int {
		ia, oka := used[a.Name]
		ib, okb := used[b.Name]
		switch {
		case oka && okb:
			return ia - ib
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	d := chebDiagram{QX: chebQX, QW: chebQW, TX: chebTableX, TW: chebTableW, Width: chebTableX + chebTableW + 8}
	at := map[string]int{}
	y := 8
	for _, t := range tables {
		b := chebBox{chebTable: t, Y: y, H: chebHead + len(t.Cols)*chebRow + 6}
		for i, c := range t.Cols {
			b.Rows = append(b.Rows, chebRowPos{chebCol: c, Y: y + chebHead + i*chebRow + 12})
		}
		at[t.Name] = y + chebHead/2
		d.Tables = append(d.Tables, b)
		y += b.H + chebGap
	}
	d.Height = y
	qy := 8
	for _, q := range accessPatterns {
		d.Queries = append(d.Queries, chebQuery{ID: q.ID, What: q.What, Y: qy})
		for _, t := range q.Tables {
			if ty, ok := at[t]; ok {
				d.Arrows = append(d.Arrows, chebArrow{X1: chebQX + chebQW, Y1: qy + 14, X2: chebTableX - 2, Y2: ty, Query: q.ID})
			}
		}
		qy += 2*chebRow + chebGap
	}
	d.Height = max(d.Height, qy)
	return d
}
