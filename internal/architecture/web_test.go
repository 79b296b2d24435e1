package architecture

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxHandWritten is the most hand-written files (Go that no tool generated, and templ) a package
// of the web layer may have: past it, a package holds several concerns, and a newcomer no longer
// finds one by its name.
const maxHandWritten = 25

// handWritten says whether the file at path is written by hand: a .templ file, or a .go file
// (not a test) without Go's generated mark (isGenerated).
func handWritten(t *testing.T, path string) bool {
	switch {
	case strings.HasSuffix(path, ".templ"):
		return true
	case !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
		return false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return !isGenerated(path, data)
}

// No package of web/... has more than maxHandWritten hand-written files.
func TestWebPackagesStaySmall(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	err = filepath.WalkDir(filepath.Join(root, "web"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if handWritten(t, path) {
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			counts[filepath.ToSlash(rel)]++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if counts["web/teach/frame"] == 0 || counts["web/pages"] == 0 {
		t.Fatalf("counted no files in web/teach/frame or web/pages: %v", counts)
	}
	for pkg, n := range counts {
		if n > maxHandWritten {
			t.Errorf("%s has %d hand-written files, more than %d: split it by concern (ARCHITECTURE.md)", pkg, n, maxHandWritten)
		}
	}
}

// lessonOf is the lesson a package is (web/teach/lessons/<lesson>), or "".
func lessonOf(pkg string) string {
	rest, ok := strings.CutPrefix(pkg, "web/teach/lessons/")
	if !ok || rest == "" || strings.Contains(rest, "/") {
		return ""
	}
	return rest
}

// No lesson imports another, in its code or its tests: the links between lessons come from the
// course's list at run time (web/teach/course), so a lesson can be moved, renumbered or taken
// out by that list alone.
func TestNoLessonImportsAnother(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	lessons := 0
	for _, p := range listPackages(t, root) {
		name := strings.TrimPrefix(p.ImportPath, module+"/")
		lesson := lessonOf(name)
		if lesson == "" {
			continue
		}
		lessons++
		imports := slices.Concat(p.Imports, p.TestImports, p.XTestImports)
		for _, im := range ours(imports) {
			if other := lessonOf(im); other != "" && other != lesson {
				t.Errorf("lesson %s imports lesson %s: link to it through the course (frame.LessonURL), or move what both use to web/teach/frame, models or labs", lesson, other)
			}
		}
	}
	if lessons < 10 {
		t.Fatalf("found %d lesson packages below web/teach/lessons", lessons)
	}
}
