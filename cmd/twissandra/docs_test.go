package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
)

// The documents whose relative links are held to the tree, from the module's root.
func documents(t *testing.T, root string) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs/*.md under %s: %v", root, err)
	}
	return append([]string{filepath.Join(root, "README.md"), filepath.Join(root, "ARCHITECTURE.md")}, docs...)
}

// Every relative link and image of the README, ARCHITECTURE.md and docs/ names a file that
// exists, and an anchor names a heading of its document.
func TestDocLinksResolve(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	files := documents(t, root)
	links := 0
	for _, f := range files {
		links += len(markdownLinks(readFile(t, f)))
	}
	if links < 20 {
		t.Fatalf("only %d links in %d documents: the parser is missing them", links, len(files))
	}
	for _, broken := range brokenLinks(files) {
		t.Error(broken)
	}
}

// The check finds what it is for: a missing file or image, a missing anchor in another document
// and in its own; links in code, external links and good anchors (duplicates numbered) pass.
func TestBrokenLinksFindsBrokenLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	other := write("docs/other.md", "# Other\n\n## The `make test` target's needs\n\n## Twice\n\n## Twice\n")
	write("docs/img/a.png", "png")
	readme := write("README.md", strings.Join([]string{
		"# Title",
		"![a picture](docs/img/a.png) and [good](docs/other.md#the-make-test-targets-needs),",
		"[twice](docs/other.md#twice-1) [self](#title) [web](https://example.com/x.md) [mail](mailto:a@b)",
		"`[in code](nowhere.md)`",
		"```",
		"[in a block](nowhere.md)",
		"```",
		"[gone](docs/gone.md) ![no picture](docs/img/b.png) [bad anchor](docs/other.md#nothing)",
		"[own bad anchor](#nothing-here) [twice too many](docs/other.md#twice-2)",
	}, "\n"))
	got := brokenLinks([]string{readme, other})
	want := []string{"docs/gone.md", "docs/img/b.png", "docs/other.md#nothing", "#nothing-here", "docs/other.md#twice-2"}
	if len(got) != len(want) {
		t.Fatalf("found %d broken links, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(got[i], "("+w+")") {
			t.Errorf("broken link %d: %q, want one naming %q", i, got[i], w)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// brokenLinks lists, in order, every relative link or image of files whose target does not
// exist, or whose anchor names no heading of its target.
func brokenLinks(files []string) []string {
	var broken []string
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			broken = append(broken, err.Error())
			continue
		}
		for _, l := range markdownLinks(string(text)) {
			if strings.Contains(l, "://") || strings.HasPrefix(l, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(l, "#")
			target := f
			if path != "" {
				target = filepath.Join(filepath.Dir(f), filepath.FromSlash(path))
			}
			if _, err := os.Stat(target); err != nil {
				broken = append(broken, fmt.Sprintf("%s: (%s): no such file", f, l))
				continue
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(target, ".md") {
				broken = append(broken, fmt.Sprintf("%s: (%s): an anchor into a file that is not Markdown", f, l))
				continue
			}
			md, err := os.ReadFile(target)
			if err != nil {
				broken = append(broken, err.Error())
				continue
			}
			if !slices.Contains(headingSlugs(string(md)), anchor) {
				broken = append(broken, fmt.Sprintf("%s: (%s): %s has no heading %q", f, l, target, anchor))
			}
		}
	}
	return broken
}

var (
	// [text](target) and ![alt](target), the text holding at most one level of brackets, the
	// target with an optional "title".
	linkRE = regexp.MustCompile(`!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// [label]: target, a reference definition.
	refRE    = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$`)
	codeRE   = regexp.MustCompile("`[^`\n]*`")
	inlineRE = regexp.MustCompile(`!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\([^)]*\)`)
)

// markdownLinks returns the targets of the links and images of a Markdown text, outside code.
func markdownLinks(text string) []string {
	var out []string
	for _, block := range proseBlocks(text) {
		block = codeRE.ReplaceAllString(block, "code")
		for _, m := range linkRE.FindAllStringSubmatch(block, -1) {
			out = append(out, m[1])
		}
		for _, m := range refRE.FindAllStringSubmatch(block, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// proseBlocks splits a Markdown text into the runs of lines outside fenced code blocks.
func proseBlocks(text string) []string {
	var blocks []string
	var cur strings.Builder
	fenced := false
	for line := range strings.Lines(text) {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			if !fenced {
				blocks = append(blocks, cur.String())
				cur.Reset()
			}
			fenced = !fenced
			continue
		}
		if !fenced {
			cur.WriteString(line)
		}
	}
	return append(blocks, cur.String())
}

// headingSlugs returns the anchors GitHub gives the headings of a Markdown text: the heading's
// text lower-cased, without its markup and punctuation, spaces as hyphens, and -1, -2, ... after
// a slug already taken.
func headingSlugs(text string) []string {
	var slugs []string
	seen := map[string]int{}
	for _, block := range proseBlocks(text) {
		for line := range strings.Lines(block) {
			line = strings.TrimRight(line, "\n")
			hashes := len(line) - len(strings.TrimLeft(line, "#"))
			if hashes == 0 || hashes > 6 || !strings.HasPrefix(line[hashes:], " ") {
				continue
			}
			h := inlineRE.ReplaceAllString(strings.TrimSpace(line[hashes:]), "$1")
			var b strings.Builder
			for _, r := range strings.ToLower(h) {
				switch {
				case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
					b.WriteRune(r)
				case r == ' ':
					b.WriteRune('-')
				}
			}
			slug := b.String()
			if n := seen[slug]; n > 0 {
				seen[slug]++
				slug = fmt.Sprintf("%s-%d", slug, n)
			} else {
				seen[slug] = 1
			}
			slugs = append(slugs, slug)
		}
	}
	return slugs
}

// docs/configuration.md has a row for every flag of serve: its name, its TWISSANDRA_ variable
// and its default, and no row for a flag serve does not have.
func TestConfigurationDocListsEveryFlag(t *testing.T) {
	t.Parallel()
	fs := newFlagSet("serve", io.Discard)
	cfg := &Config{}
	bindFlags(fs, cfg)
	bindServeFlags(fs, cfg)

	rows := map[string][]string{}
	for line := range strings.Lines(readFile(t, filepath.Join("..", "..", "docs", "configuration.md"))) {
		if !strings.HasPrefix(line, "| `--") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), " | ")
		for i := range cells {
			cells[i] = strings.Trim(strings.TrimSpace(cells[i]), "`")
		}
		name := strings.TrimPrefix(cells[0], "--")
		if _, dup := rows[name]; dup {
			t.Errorf("docs/configuration.md: --%s has two rows", name)
		}
		rows[name] = cells
	}
	fs.VisitAll(func(f *flag.Flag) {
		row, ok := rows[f.Name]
		if !ok {
			t.Errorf("docs/configuration.md has no row for --%s (%s)", f.Name, f.Usage)
			return
		}
		delete(rows, f.Name)
		if len(row) != 4 {
			t.Errorf("docs/configuration.md: the row of --%s has %d cells, want 4 (flag, variable, default, meaning)", f.Name, len(row))
			return
		}
		if env := envPrefix + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_")); row[1] != env {
			t.Errorf("docs/configuration.md: --%s's variable is %q, want %q", f.Name, row[1], env)
		}
		if !sameDefault(row[2], f.DefValue) {
			t.Errorf("docs/configuration.md: --%s's default is %q, the flag's is %q", f.Name, row[2], f.DefValue)
		}
	})
	for name := range rows {
		t.Errorf("docs/configuration.md has a row for --%s, which serve does not have", name)
	}
}

// sameDefault says whether a default as the document writes it is the flag's: "none" for an
// empty one, a duration in any spelling of the same length.
func sameDefault(doc, def string) bool {
	if def == "" {
		return doc == "none"
	}
	if doc == def {
		return true
	}
	a, errA := time.ParseDuration(doc)
	b, errB := time.ParseDuration(def)
	return errA == nil && errB == nil && a == b
}
