// Package portgen writes the wrappers that pass every port call on: the metrics that count and
// time each call (web/metrics) and compare mode, which runs each call on two models
// (adapters/compare). Both are typed code made from the port interfaces themselves, so that a
// method added to a port reaches them with `go generate ./...` and no hand-written line.
//
// The ports wrapped are the fields of ports.Stores, in its order; their methods are read from
// the ports package's source (ports.go, blog.go) with go/ast, those of the interfaces a port
// embeds (UserStore: UserReader, UserWriter, ...) where it embeds them. A method the target package
// already declares on the wrapper's type, by hand in a file of its own, is skipped: that is how
// a wrapper that does something particular (compare's set comparison of follow lists, the
// metrics of a fan-out's size) stays hand-written beside the generated ones.
//
// Each kind asks its package for a few hand-written pieces, named in its template: metrics a
// `base` struct (what every wrapper holds) and `Metrics.op`; compare the `Pair`'s `write` and
// `read`, `pick`, and one key function per result type, named after it (`userKey` for
// domain.User, `listKey(userKey)` for []domain.User).
package portgen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
)

// Kinds are the wrappers portgen writes.
var Kinds = []string{"metrics", "compare"}

// Port is one port interface, as ports.Stores names it.
type Port struct {
	Field   string // the ports.Stores field: "Users"
	Type    string // the interface: "UserStore"
	Wrapper string // the wrapper's type in the target package: "userStore"
	Methods []Method
}

// Method is one method of a port.
type Method struct {
	Name    string
	Params  []Param // after the context
	Results []string
	Doc     string
}

// Param is one parameter: its name and its type as the source writes it.
type Param struct {
	Name     string
	Type     string
	Variadic bool
}

// ReadPorts parses the ports package in dir and returns the ports of ports.Stores, in its order,
// and the imports their signatures need (path by package name).
func ReadPorts(dir string) ([]Port, map[string]string, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	interfaces := map[string]*ast.InterfaceType{}
	imports := map[string]string{}
	var stores *ast.StructType
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return nil, nil, err
		}
		for _, im := range f.Imports {
			p := strings.Trim(im.Path.Value, `"`)
			name := p[strings.LastIndex(p, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = p
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			switch t := ts.Type.(type) {
			case *ast.InterfaceType:
				interfaces[ts.Name.Name] = t
			case *ast.StructType:
				if ts.Name.Name == "Stores" {
					stores = t
				}
			}
			return false
		})
	}
	if stores == nil {
		return nil, nil, fmt.Errorf("portgen: no Stores struct in %s", dir)
	}
	var ports []Port
	for _, field := range stores.Fields.List {
		typ := exprString(fset, field.Type)
		it, ok := interfaces[typ]
		if !ok {
			return nil, nil, fmt.Errorf("portgen: Stores field of type %s: no such interface in %s", typ, dir)
		}
		methods, err := methodsOf(fset, interfaces, typ, it, nil)
		if err != nil {
			return nil, nil, err
		}
		for _, name := range field.Names {
			ports = append(ports, Port{Field: name.Name, Type: typ, Wrapper: lowerFirst(typ), Methods: methods})
		}
	}
	return ports, imports, nil
}

// methodsOf returns the methods of interface typ, in the order of its source: its own, and those
// of each interface it embeds (of the ports package, read the same way) where the embedding is
// written. A method that two of them declare, or an embedding of an interface the package does
// not declare (another package's, a type union), is refused: the wrappers would not know which
// to write. outer are the interfaces that embed typ, to refuse a cycle.
func methodsOf(fset *token.FileSet, interfaces map[string]*ast.InterfaceType, typ string, it *ast.InterfaceType, outer []string) ([]Method, error) {
	if slices.Contains(outer, typ) {
		return nil, fmt.Errorf("portgen: %s embeds itself (through %s)", typ, strings.Join(outer, ", "))
	}
	var out []Method
	seen := map[string]string{} // method -> the interface that declares it
	add := func(from string, ms ...Method) error {
		for _, m := range ms {
			if other, ok := seen[m.Name]; ok {
				return fmt.Errorf("portgen: %s: method %s both in %s and in %s", typ, m.Name, other, from)
			}
			seen[m.Name] = from
			out = append(out, m)
		}
		return nil
	}
	for _, f := range it.Methods.List {
		if len(f.Names) == 0 {
			// An embedded interface: its methods, where it is written.
			name, ok := f.Type.(*ast.Ident)
			inner, found := interfaces[exprString(fset, f.Type)]
			if !ok || !found {
				return nil, fmt.Errorf("portgen: %s embeds %s, which is no interface of the ports package: list its methods instead", typ, exprString(fset, f.Type))
			}
			ms, err := methodsOf(fset, interfaces, name.Name, inner, append(outer, typ))
			if err != nil {
				return nil, err
			}
			if err := add(name.Name, ms...); err != nil {
				return nil, err
			}
			continue
		}
		ft, ok := f.Type.(*ast.FuncType)
		if !ok || len(f.Names) != 1 {
			return nil, fmt.Errorf("portgen: %s: a method per line", typ)
		}
		m, err := method(fset, f.Names[0].Name, ft)
		if err != nil {
			return nil, fmt.Errorf("portgen: %s.%s: %w", typ, f.Names[0].Name, err)
		}
		if err := add(typ, m); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func method(fset *token.FileSet, name string, ft *ast.FuncType) (Method, error) {
	m := Method{Name: name}
	for i, f := range ft.Params.List {
		typ := exprString(fset, f.Type)
		if i == 0 {
			if typ != "context.Context" || len(f.Names) != 1 {
				return m, fmt.Errorf("the first parameter must be one context.Context")
			}
			continue
		}
		variadic := false
		if e, ok := f.Type.(*ast.Ellipsis); ok {
			variadic, typ = true, "[]"+exprString(fset, e.Elt)
		}
		if len(f.Names) == 0 {
			return m, fmt.Errorf("every parameter needs a name")
		}
		for _, n := range f.Names {
			m.Params = append(m.Params, Param{Name: n.Name, Type: typ, Variadic: variadic})
		}
	}
	if ft.Results != nil {
		for _, r := range ft.Results.List {
			n := max(1, len(r.Names))
			for range n {
				m.Results = append(m.Results, exprString(fset, r.Type))
			}
		}
	}
	if len(m.Results) == 0 || m.Results[len(m.Results)-1] != "error" || len(m.Results) > 2 {
		return m, fmt.Errorf("must return error, or one value and an error")
	}
	return m, nil
}

func exprString(fset *token.FileSet, e ast.Expr) string {
	var b bytes.Buffer
	_ = format.Node(&b, fset, e)
	return b.String()
}

func lowerFirst(s string) string {
	r := []rune(s)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

// SnakeCase is a method's name as a metric label: CreateUser -> create_user.
func SnakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// handWritten lists the methods the target package in dir declares by hand (outside generated
// files), as "receiverType.Method".
func handWritten(dir, generated string) (map[string]bool, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") || filepath.Base(path) == generated {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
				continue
			}
			recv := strings.TrimPrefix(exprString(fset, fd.Recv.List[0].Type), "*")
			out[recv+"."+fd.Name.Name] = true
		}
	}
	return out, nil
}

// Generate returns the generated file of kind for the target package in dir, reading the ports
// in portsDir. generated is the file's name (skipped when looking for hand-written methods).
func Generate(kind, dir, portsDir, generated string) ([]byte, error) {
	ports, imports, err := ReadPorts(portsDir)
	if err != nil {
		return nil, err
	}
	hand, err := handWritten(dir, generated)
	if err != nil {
		return nil, err
	}
	g := &gen{imports: imports, used: map[string]bool{"context": true, "twissandra/ports": true}, hand: hand}
	switch kind {
	case "metrics":
		g.metrics(ports)
	case "compare":
		g.compare(ports)
	default:
		return nil, fmt.Errorf("portgen: unknown kind %q (want one of %s)", kind, strings.Join(Kinds, ", "))
	}
	return g.file(filepath.Base(dir), kind)
}

type gen struct {
	imports map[string]string // package name -> path, of the ports' sources
	used    map[string]bool   // import paths the body needs
	hand    map[string]bool
	body    bytes.Buffer
}

func (g *gen) p(format string, args ...any) { fmt.Fprintf(&g.body, format, args...) }

// use notes the imports a type expression needs.
func (g *gen) use(typ string) {
	for name, path := range g.imports {
		if strings.Contains(typ, name+".") {
			g.used[path] = true
		}
	}
}

func (g *gen) file(pkg, kind string) ([]byte, error) {
	var out bytes.Buffer
	fmt.Fprintf(&out, "// Code generated by portgen -kind %s from the ports of ports.Stores; DO NOT EDIT.\n\n", kind)
	fmt.Fprintf(&out, "package %s\n\nimport (\n", pkg)
	paths := make([]string, 0, len(g.used))
	for p := range g.used {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	// The groups goimports keeps: the standard library, other modules, this module.
	group := func(p string) int {
		switch first, _, _ := strings.Cut(p, "/"); {
		case !strings.Contains(first, "."):
			if first == "twissandra" {
				return 2
			}
			return 0
		}
		return 1
	}
	slices.SortStableFunc(paths, func(a, b string) int { return group(a) - group(b) })
	for i, p := range paths {
		if i > 0 && group(p) != group(paths[i-1]) {
			out.WriteString("\n")
		}
		fmt.Fprintf(&out, "\t%q\n", p)
	}
	out.WriteString(")\n\n")
	out.Write(g.body.Bytes())
	src, err := format.Source(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("portgen: the generated code does not parse: %w\n%s", err, out.Bytes())
	}
	return src, nil
}

// signature is the method's parameter list (with the context) and its results.
func (g *gen) signature(m Method) string {
	var b strings.Builder
	b.WriteString("ctx context.Context")
	for _, p := range m.Params {
		g.use(p.Type)
		typ := p.Type
		if p.Variadic {
			typ = "..." + strings.TrimPrefix(typ, "[]")
		}
		fmt.Fprintf(&b, ", %s %s", p.Name, typ)
	}
	for _, r := range m.Results {
		g.use(r)
	}
	res := strings.Join(m.Results, ", ")
	if len(m.Results) > 1 {
		res = "(" + res + ")"
	}
	return "(" + b.String() + ") " + res
}

// args is the call's argument list (with the context).
func args(m Method) string {
	var b strings.Builder
	b.WriteString("ctx")
	for _, p := range m.Params {
		b.WriteString(", " + p.Name)
		if p.Variadic {
			b.WriteString("...")
		}
	}
	return b.String()
}

// metrics writes, per port, a wrapper that times and counts every call under the metric label
// of its method, and Metrics.Stores that wraps them all.
func (g *gen) metrics(ports []Port) {
	g.used["time"] = true
	g.p("// Stores wraps every store of s so that each call is counted and timed under adapter and\n")
	g.p("// its method's name in snake case (the op label: get_user, slice_many).\n")
	g.p("func (m *Metrics) Stores(s ports.Stores, adapter string) ports.Stores {\n\tb := m.base(adapter)\n\treturn ports.Stores{\n")
	for _, p := range ports {
		g.p("\t\t%s: &%s{base: b, s: s.%s,\n", p.Field, p.Wrapper, p.Field)
		for _, m := range p.Methods {
			g.p("\t\t\t%s: m.op(adapter, %q),\n", lowerFirst(m.Name), SnakeCase(m.Name))
		}
		g.p("\t\t},\n")
	}
	g.p("\t}\n}\n\n")
	for _, p := range ports {
		g.p("type %s struct {\n\tbase\n\ts ports.%s\n", p.Wrapper, p.Type)
		for _, m := range p.Methods {
			g.p("\t%s *opTimer\n", lowerFirst(m.Name))
		}
		g.p("}\n\n")
		for _, m := range p.Methods {
			if g.hand[p.Wrapper+"."+m.Name] {
				continue
			}
			sig := g.signature(m)
			g.p("func (w *%s) %s%s {\n\tstart := time.Now()\n", p.Wrapper, m.Name, sig)
			if len(m.Results) == 2 {
				g.p("\tv, err := w.s.%s(%s)\n\tw.%s.done(start, err)\n\treturn v, err\n}\n\n", m.Name, args(m), lowerFirst(m.Name))
			} else {
				g.p("\terr := w.s.%s(%s)\n\tw.%s.done(start, err)\n\treturn err\n}\n\n", m.Name, args(m), lowerFirst(m.Name))
			}
		}
	}
}

// compare writes, per port, a wrapper that runs every call on both models of a Pair: a method
// that returns only an error is a write (the primary's, then the secondary's if the primary
// took it), one that returns a value is a read (answered by the primary, shadowed on the
// secondary, the two answers compared by the key function of the value's type).
func (g *gen) compare(ports []Port) {
	g.p("// Stores runs every store on both models of p: primary answers, secondary shadows.\n")
	g.p("func Stores(p *Pair, primary, secondary ports.Stores) ports.Stores {\n\treturn ports.Stores{\n")
	for _, port := range ports {
		g.p("\t\t%s: %s{p, primary.%s, secondary.%s},\n", port.Field, port.Wrapper, port.Field, port.Field)
	}
	g.p("\t}\n}\n\n")
	for _, port := range ports {
		g.p("type %s struct {\n\tp    *Pair\n\ta, b ports.%s\n}\n\n", port.Wrapper, port.Type)
		for _, m := range port.Methods {
			if g.hand[port.Wrapper+"."+m.Name] {
				continue
			}
			sig := g.signature(m)
			op := SnakeCase(m.Name)
			g.p("func (w %s) %s%s {\n", port.Wrapper, m.Name, sig)
			if len(m.Results) == 1 {
				g.p("\treturn w.p.write(ctx, %s, func(ctx context.Context, first bool) error {\n", describe(op, m))
				g.p("\t\treturn pick(first, w.a, w.b).%s(%s)\n\t})\n}\n\n", m.Name, args(m))
				continue
			}
			g.p("\treturn read(ctx, w.p, %s, func(ctx context.Context, first bool) (%s, error) {\n", describe(op, m), m.Results[0])
			g.p("\t\treturn pick(first, w.a, w.b).%s(%s)\n\t}, %s)\n}\n\n", m.Name, args(m), keyFunc(m.Results[0]))
		}
	}
}

// describe is the expression naming a call in compare mode's reports: the op, then the
// arguments that read as text (names, ids, lines), e.g. "get_user " + username. Its first word
// is a bounded metric label.
func describe(op string, m Method) string {
	expr := fmt.Sprintf("%q", op)
	for _, p := range m.Params {
		switch p.Type {
		case "string":
			expr += fmt.Sprintf(" + \" \" + %s", p.Name)
		case "uuid.UUID", "domain.LineKey":
			expr += fmt.Sprintf(" + \" \" + %s.String()", p.Name)
		}
	}
	return expr
}

// keyFunc is the key function of a result type: typeKey for a named type, listKey(elemKey) for
// a slice.
func keyFunc(typ string) string {
	if elem, ok := strings.CutPrefix(typ, "[]"); ok {
		return "listKey(" + keyFunc(elem) + ")"
	}
	if _, name, ok := strings.Cut(typ, "."); ok {
		typ = name
	}
	return lowerFirst(typ) + "Key"
}

// FileName is the generated file's name in each package.
const FileName = "stores_gen.go"

// ModuleRoot is the directory of the go.mod above dir.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
	}
}

// WriteFile generates kind for the package in dir and writes it there as name.
func WriteFile(kind, dir, portsDir, name string) error {
	src, err := Generate(kind, dir, portsDir, name)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), src, 0o644)
}
