package site_test

import (
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every page's generated Go code (a *_templ.go beside each .templ file) is what templ makes of
// its .templ now: a template changed without `go generate ./...` fails here.
func TestTemplatesAreGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the templ command (go tool templ)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, ".templ") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no .templ file found")
	}
	dirs := map[string]bool{}
	for _, f := range files {
		dirs[filepath.Dir(f)] = true
	}
	for dir := range dirs {
		// -check compares what it would write with the files there, as go generate ./...
		// writes them (templ generate -path . in each package).
		cmd := exec.Command("go", "tool", "templ", "generate", "-check", "-path", ".")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("the templates of %s are not generated: run go generate ./... and commit what it writes (%v)\n%s", dir, err, out)
		}
	}
}
