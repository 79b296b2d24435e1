package web

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A client that sends its whole body before it reads (Python's urllib does) must always read
// the 413: the server drains what it refused instead of closing under the client's feet, which
// resets the connection and loses the answer.
func TestOversizedBodyAlwaysGetsItsAnswer(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	ts := httptest.NewServer(env.srv.Engine)
	t.Cleanup(ts.Close)
	// 8 MiB: more than the loopback socket buffers hold, so an early close is seen.
	big := strings.Repeat("x", 8<<20)
	body := `{"username":"carol","password":"` + big + `"}`
	for _, tc := range []struct {
		name    string
		chunked bool
	}{{"declared length", false}, {"chunked", true}} {
		t.Run(tc.name, func(t *testing.T) {
			for i := range 12 {
				status, slug, err := sendWholeThenRead(ts.Listener.Addr().String(), "/api/v1/users", body, tc.chunked)
				if err != nil {
					t.Fatalf("try %d: %v", i, err)
				}
				if status != http.StatusRequestEntityTooLarge || slug != SlugBodyTooLarge {
					t.Fatalf("try %d: %d %q, want 413 %q", i, status, slug, SlugBodyTooLarge)
				}
			}
		})
	}
	// Nothing was stored by the refused sign-ups.
	if rec := env.do(http.MethodGet, "/api/v1/users/carol", "", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("carol after refused sign-ups: %d", rec.Code)
	}
}

// sendWholeThenRead writes the whole request on a fresh connection, and only then reads the
// response.
func sendWholeThenRead(addr, path, body string, chunked bool) (status int, slug string, err error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return 0, "", err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	w := bufio.NewWriterSize(conn, 64<<10)
	fmt.Fprintf(w, "POST %s HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n", path)
	if chunked {
		fmt.Fprintf(w, "Transfer-Encoding: chunked\r\n\r\n")
		for rest := body; rest != ""; {
			n := min(len(rest), 32<<10)
			fmt.Fprintf(w, "%x\r\n%s\r\n", n, rest[:n])
			rest = rest[n:]
		}
		fmt.Fprintf(w, "0\r\n\r\n")
	} else {
		fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	if err := w.Flush(); err != nil {
		return 0, "", fmt.Errorf("sending: %w", err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, "", fmt.Errorf("reading the answer: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, "", fmt.Errorf("reading the answer's body: %w", err)
	}
	var e ErrorBody
	if err := json.Unmarshal(raw, &e); err != nil {
		return resp.StatusCode, "", fmt.Errorf("answer %q: %w", raw, err)
	}
	return resp.StatusCode, e.Error, nil
}
