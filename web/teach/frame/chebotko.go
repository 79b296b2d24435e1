package frame

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// A Chebotko diagram of the CQL3 schema, drawn from the cql3 adapter's migrations as the server
// applies them: each table with its partition key (K), its clustering columns and their order
// (C↑, C↓), its static columns (S) and the rest, and an arrow from each access pattern of the
// seeds' action list to the tables that serve it. A test holds the parse to the live schema of
// a real node.

type ChebCol struct {
	Name, Type, Mark string // Mark: K, C↑, C↓, S or ""
}

type ChebTable struct {
	Name string
	Cols []ChebCol
}

var (
	ddlComment = regexp.MustCompile(`--[^\n]*`)
	ddlCreate  = regexp.MustCompile(`(?is)^CREATE TABLE (?:IF NOT EXISTS )?(\w+)\s*\((.*)$`)
	ddlAlter   = regexp.MustCompile(`(?is)^ALTER TABLE (\w+) ADD \(?(.*?)\)?$`)
	ddlOrder   = regexp.MustCompile(`(?i)CLUSTERING ORDER BY \(([^)]*)\)`)
)

// SplitTop splits s on sep outside parentheses and angle brackets.
func SplitTop(s string, sep rune) []string {
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

// ParseSchema reads the tables of CQL DDL (CREATE TABLE and ALTER TABLE ... ADD), in the order
// they are created; each table's columns in key order, then the others in the order declared.
func ParseSchema(ddl string) []ChebTable {
	var tables []ChebTable
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
			t := ChebTable{Name: m[1]}
			types := map[string]string{}
			var order, pk, ck []string
			statics := map[string]bool{}
			for _, part := range SplitTop(m[2], ',') {
				if rest, ok := strings.CutPrefix(strings.ToUpper(part), "PRIMARY KEY"); ok {
					keys := SplitTop(strings.Trim(strings.TrimSpace(part[len(part)-len(rest):]), "()"), ',')
					if len(keys) > 0 {
						pk = SplitTop(strings.Trim(keys[0], "()"), ',')
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
				for _, c := range SplitTop(o[1], ',') {
					if f := strings.Fields(c); len(f) == 2 && strings.EqualFold(f[1], "DESC") {
						desc[f[0]] = true
					}
				}
			}
			for _, k := range pk {
				t.Cols = append(t.Cols, ChebCol{Name: k, Type: types[k], Mark: "K"})
			}
			for _, c := range ck {
				mark := "C↑"
				if desc[c] {
					mark = "C↓"
				}
				t.Cols = append(t.Cols, ChebCol{Name: c, Type: types[c], Mark: mark})
			}
			for _, c := range order {
				if slices.Contains(pk, c) || slices.Contains(ck, c) {
					continue
				}
				mark := ""
				if statics[c] {
					mark = "S"
				}
				t.Cols = append(t.Cols, ChebCol{Name: c, Type: types[c], Mark: mark})
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
			for _, part := range SplitTop(m[2], ',') {
				if f := strings.Fields(part); len(f) >= 2 {
					col := ChebCol{Name: f[0], Type: strings.Join(f[1:], " ")}
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

// The diagram's layout, in SVG units: the access patterns in a column on the left, each in a
// box of its own height (its words wrapped, never cut), the tables in a column on the right, and
// between them a lane per access pattern, so that each pattern's arrows run apart from the
// others': out of its box, along its lane, into each table it reads.
const (
	chebRow     = 16
	chebHead    = 22
	chebGap     = 14
	chebQX      = 8
	chebQW      = 250
	chebQLine   = 14 // a line of a pattern's words
	ChebQChars  = 32 // characters of a line of its words (7.2 units each)
	chebLane    = 10 // between two lanes
	chebTableW  = 330
	chebFirstLn = chebQX + chebQW + 14 // the first lane
)

// chebColors tell the access patterns' arrows apart.
var chebColors = []string{"#4f46e5", "#0891b2", "#c026d3", "#ea580c", "#16a34a", "#dc2626", "#9333ea", "#0d9488", "#ca8a04"}

type ChebBox struct {
	ChebTable
	Y, H int
	Rows []chebRowPos
	// ReadBy are the access patterns that read the table; none for a table no pattern reads.
	ReadBy []string
}

type chebRowPos struct {
	ChebCol
	Y int
}

type chebQuery struct {
	ID, What string
	Lines    []chebLine // its words, wrapped
	Y, H     int
	Color    string
	Tables   []string // the tables it reads
}

type chebLine struct {
	Text string
	Y    int
}

// chebArrow is one access pattern's path into one table: out of the pattern's box, along its
// lane, into the table's left side.
type chebArrow struct {
	Query, Table, Color string
	Path                string // SVG path data
}

type ChebDiagram struct {
	Tables        []ChebBox
	Queries       []chebQuery
	Arrows        []chebArrow
	Width, Height int
	QX, QW        int
	TX, TW        int
	// Unread are the tables no access pattern reads, and why they exist.
	Unread []unreadTable
}

// unreadTable is a table no access pattern of the list reads, and why it exists.
type unreadTable struct{ Name, Why string }

// unreadWhy says why each table that no access pattern reads exists; a table of the migrations
// that no pattern reads and this does not explain is shown as "unexplained", which a test
// refuses.
var unreadWhy = map[string]string{
	"tweets":          "the tweets by ID, for the API and for the line rows written before the query-first lines",
	"race_names":      "the uniqueness race's sandbox",
	"login_attempts":  "the log-in limit's counts, read by every log-in",
	"ended_sessions":  "the sessions a logout ended, read by each server at most once a second per session",
	"action_records":  "what a page's action cost, read by the page after its redirect on whichever server answers it",
	"course_progress": "each signed-in learner's lessons visited and exercises passed, in the order first done",
	"class_members":   "the accounts an instructor made for each class, read by the instructor's roster",
	"class_activity":  "each signed-in learner's last action and console statements, read by the instructor's roster",
}

// wrapWords breaks s into lines of at most n characters, at spaces.
func wrapWords(s string, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) <= n:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// Chebotko lays the tables out in one column, in the order the access patterns first read
// them (the tables no pattern reads last), and the access patterns in another, each level with
// the first table it reads where the boxes above leave room, with its arrows along a lane of its
// own to each table it reads.
func Chebotko(ddl string) ChebDiagram {
	tables := ParseSchema(ddl)
	used := map[string]int{} // the first pattern to read a table, then its place in its list
	for i, q := range AccessPatterns {
		for j, t := range q.Tables {
			if _, ok := used[t]; !ok {
				used[t] = i*100 + j
			}
		}
	}
	slices.SortStableFunc(tables, func(a, b ChebTable) int {
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
	tx := chebFirstLn + len(AccessPatterns)*chebLane + 8
	d := ChebDiagram{QX: chebQX, QW: chebQW, TX: tx, TW: chebTableW, Width: tx + chebTableW + 8}
	at := map[string]int{} // a table's index in d.Tables
	y := 8
	for _, t := range tables {
		b := ChebBox{ChebTable: t, Y: y, H: chebHead + len(t.Cols)*chebRow + 6}
		for i, c := range t.Cols {
			b.Rows = append(b.Rows, chebRowPos{ChebCol: c, Y: y + chebHead + i*chebRow + 12})
		}
		at[t.Name] = len(d.Tables)
		d.Tables = append(d.Tables, b)
		y += b.H + chebGap
	}
	d.Height = y
	// Each table's arrows land apart along its left side, in the order of the patterns.
	incoming := map[string]int{}
	for _, q := range AccessPatterns {
		for _, t := range q.Tables {
			if i, ok := at[t]; ok {
				d.Tables[i].ReadBy = append(d.Tables[i].ReadBy, q.ID)
			}
		}
	}
	qy := 8
	for n, q := range AccessPatterns {
		cq := chebQuery{ID: q.ID, What: q.What, Color: chebColors[n%len(chebColors)], Tables: q.Tables}
		words := wrapWords(q.ID+" "+q.What, ChebQChars)
		cq.H = 10 + len(words)*chebQLine
		if len(q.Tables) > 0 {
			if i, ok := at[q.Tables[0]]; ok {
				qy = max(qy, d.Tables[i].Y)
			}
		}
		cq.Y = qy
		for i, w := range words {
			cq.Lines = append(cq.Lines, chebLine{Text: w, Y: qy + 5 + (i+1)*chebQLine - 3})
		}
		lane := chebFirstLn + n*chebLane
		from := qy + cq.H/2
		for _, t := range q.Tables {
			i, ok := at[t]
			if !ok {
				continue
			}
			tb := d.Tables[i]
			k := incoming[t]
			incoming[t]++
			to := tb.Y + 10 + (k+1)*(tb.H-14)/(len(tb.ReadBy)+1)
			d.Arrows = append(d.Arrows, chebArrow{Query: q.ID, Table: t, Color: cq.Color,
				Path: fmt.Sprintf("M %d %d H %d V %d H %d", chebQX+chebQW, from, lane, to, tx-2)})
		}
		d.Queries = append(d.Queries, cq)
		qy += cq.H + chebGap
	}
	for _, t := range d.Tables {
		if len(t.ReadBy) == 0 {
			why := unreadWhy[t.Name]
			if why == "" {
				why = "unexplained"
			}
			d.Unread = append(d.Unread, unreadTable{t.Name, why})
		}
	}
	d.Height = max(d.Height, qy)
	return d
}

// KeyOf is a table's primary key in words: "K username, C↓ time".
func (b ChebBox) KeyOf() string {
	var parts []string
	for _, c := range b.Cols {
		if c.Mark == "K" || strings.HasPrefix(c.Mark, "C") {
			parts = append(parts, c.Mark+" "+c.Name)
		}
	}
	return strings.Join(parts, ", ")
}

// Table is the box of the table named, nil for none.
func (d *ChebDiagram) Table(name string) *ChebBox {
	for i := range d.Tables {
		if d.Tables[i].Name == name {
			return &d.Tables[i]
		}
	}
	return nil
}

// The application workflow of Chebotko's method: the screens a user moves through, each with
// the access patterns it runs, and the moves between them. The diagram of the tables answers
// it: every access pattern a screen runs has its arrows there.

type flowStep struct {
	ID, Name string
	Queries  []string
	Col, Row int // its place in the workflow's grid
	Entry    bool
}

type flowMove struct{ From, To string }

var appWorkflow = []flowStep{
	{"login", "Sign up, sign in", []string{"Q1"}, 0, 0, true},
	{"home", "Home timeline", []string{"Q3"}, 1, 0, false},
	{"public", "Public line", []string{"Q4"}, 1, 1, true},
	{"user", "A user's page", []string{"Q1", "Q2", "Q5"}, 2, 0, false},
	{"follows", "Follows, followers", []string{"Q1", "Q5"}, 3, 0, false},
	{"blog", "Blog, by tag", []string{"Q6"}, 1, 2, true},
	{"entry", "An entry and its comments", []string{"Q7", "Q8"}, 2, 2, false},
	{"author", "An author", []string{"Q9", "Q6"}, 3, 2, false},
}

var appMoves = []flowMove{
	{"login", "home"}, {"home", "user"}, {"public", "user"}, {"user", "follows"}, {"follows", "user"},
	{"blog", "entry"}, {"entry", "author"}, {"author", "entry"},
}

const (
	flowW    = 180
	flowH    = 46
	flowColW = 220
	flowRowH = 70
	flowX    = 40
	flowY    = 10
)

type flowBox struct {
	flowStep
	X, Y    int
	Queries string
}

type flowArrow struct {
	From, To string
	Path     string
}

type flowDiagram struct {
	Steps         []flowBox
	Arrows        []flowArrow
	Entries       []flowArrow
	Width, Height int
}

// workflow lays the application workflow out on its grid: an entry arrow into each screen a
// user may start from, and an arrow for each move; two moves between the same screens, there
// and back, run apart.
func workflow() flowDiagram {
	var d flowDiagram
	pos := map[string]flowBox{}
	for _, s := range appWorkflow {
		b := flowBox{flowStep: s, X: flowX + s.Col*flowColW, Y: flowY + s.Row*flowRowH, Queries: strings.Join(s.Queries, ", ")}
		pos[s.ID] = b
		d.Steps = append(d.Steps, b)
		d.Width = max(d.Width, b.X+flowW+10)
		d.Height = max(d.Height, b.Y+flowH+10)
		if s.Entry {
			d.Entries = append(d.Entries, flowArrow{To: s.ID, Path: fmt.Sprintf("M %d %d H %d", b.X-30, b.Y+flowH/2, b.X-2)})
		}
	}
	for _, m := range appMoves {
		a, b := pos[m.From], pos[m.To]
		back := slices.Contains(appMoves, flowMove{m.To, m.From})
		off := 0
		if back {
			off = -8
			if a.X > b.X || (a.X == b.X && a.Y > b.Y) {
				off = 8
			}
		}
		var path string
		switch {
		case a.Y == b.Y && a.X < b.X:
			path = fmt.Sprintf("M %d %d H %d", a.X+flowW, a.Y+flowH/2+off, b.X-2)
		case a.Y == b.Y:
			path = fmt.Sprintf("M %d %d H %d", a.X, a.Y+flowH/2+off, b.X+flowW+2)
		default: // to a screen on another row: out of the right side, into the bottom or top
			y2 := b.Y + flowH + 2
			if b.Y > a.Y {
				y2 = b.Y - 2
			}
			path = fmt.Sprintf("M %d %d H %d V %d", a.X+flowW, a.Y+flowH/2+off, b.X+flowW/2+off, y2)
		}
		d.Arrows = append(d.Arrows, flowArrow{From: m.From, To: m.To, Path: path})
	}
	return d
}
