// Command bare serves the bytes of one file at one path from a bare gin engine, with the API's
// content type: the floor that scripts/httpcompare.sh measures the API's pages against (gin's
// routing and net/http, without storage, use case, authentication or JSON encoding).
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"

	"github.com/gin-gonic/gin"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18083", "address to listen on")
	path := flag.String("path", "/api/v1/timeline", "path to serve")
	file := flag.String("file", "", "file whose bytes are served")
	flag.Parse()
	body, err := os.ReadFile(*file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(2)
	}
	gin.SetMode(gin.ReleaseMode)
	e := gin.New()
	e.GET(*path, func(c *gin.Context) { c.Data(http.StatusOK, "application/json; charset=utf-8", body) })
	e.GET("/readyz", func(c *gin.Context) { c.Status(http.StatusOK) })
	if err := http.ListenAndServe(*addr, e); err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
}
