// Command portgen writes a package's port wrappers (see package portgen):
//
//	//go:generate go run twissandra/internal/portgen/cmd/portgen -kind metrics
//
// It runs in the package's directory (as go generate does) and writes stores_gen.go there.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"twissandra/internal/portgen"
)

func main() {
	kind := flag.String("kind", "", "the wrappers to write: metrics or compare")
	ports := flag.String("ports", "", "the ports package's directory (default: ports/ at the module's root)")
	out := flag.String("out", portgen.FileName, "the file to write in the current directory")
	flag.Parse()
	if err := run(*kind, *ports, *out); err != nil {
		fmt.Fprintln(os.Stderr, "portgen:", err)
		os.Exit(1)
	}
}

func run(kind, ports, out string) error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	if ports == "" {
		root, err := portgen.ModuleRoot(dir)
		if err != nil {
			return err
		}
		ports = filepath.Join(root, "ports")
	}
	return portgen.WriteFile(kind, dir, ports, out)
}
