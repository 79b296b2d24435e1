// Package static holds the teaching room's figures, embedded: the celebrity measurements and
// the fan-out simulation (JSON, which the pages read, and the SVG plots the site serves). The
// commands that measure them write them here (see ARCHITECTURE.md).
package static

import "embed"

// FS is the figures, at the top of the file system: celebrity.json, celebrity.svg,
// celebrity-simulation.json, celebrity-simulation.svg.
//
//go:embed *.json *.svg
var FS embed.FS
