package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A client that sends its body a byte at a time is dropped when --read-timeout passes, long
// before its body would have arrived: its connection ends with a 400, and another client is
// served meanwhile.
func TestSlowBodyIsDropped(t *testing.T) {
	t.Parallel()
	addr := startServe(t, "--read-timeout", "1s")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := fmt.Fprintf(conn, "POST /api/v1/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	// The rest trickles in, a byte every 100 ms: 100 s for the whole body.
	stop := make(chan struct{})
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	defer close(stop)
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("no answer after %v: %v", took, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || took > 5*time.Second || took < 900*time.Millisecond {
		t.Fatalf("a body trickling in: %d after %v, want a 400 after about 1 s", resp.StatusCode, took)
	}
	if r, err := http.Get("http://" + addr + "/healthz"); err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("another client meanwhile: %v", err)
	}
}

// A client that asks for pages and never reads them is dropped when --write-timeout passes: its
// connection ends long before the pages it asked for are written.
func TestReaderThatNeverReadsIsDropped(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("watches the connection in /proc/net/tcp, which only Linux has")
	}
	t.Parallel()
	addr := startServe(t, "--write-timeout", "1s")
	page, err := http.Get("http://" + addr + "/models")
	if err != nil {
		t.Fatal(err)
	}
	one, _ := io.ReadAll(page.Body)
	page.Body.Close()
	// A receive buffer of 4 KiB, set before connecting, so that the kernel holds little of
	// what the server sends.
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		return errors.Join(err, serr)
	}}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const asked = 1000 // pipelined: 1000 pages, many megabytes, that no buffer between holds
	if _, err := io.WriteString(conn, strings.Repeat("GET /models HTTP/1.1\r\nHost: x\r\n\r\n", asked)); err != nil {
		t.Fatal(err)
	}
	// The client reads nothing until the server has closed its side of the connection (seen in
	// the kernel's table of sockets: the server's socket leaves ESTABLISHED), then reads what was
	// sent. However slowly a loaded machine renders the pages, the server must let go.
	waitServerClosed(t, addr, conn.LocalAddr().String(), time.Minute)
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	got, err := io.Copy(io.Discard, conn)
	if err != nil && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("reading what the server sent: %v", err)
	}
	if want := int64(asked * len(one)); got >= want/2 {
		t.Fatalf("the server wrote %d of the %d bytes asked for to a client that did not read", got, want)
	}
	t.Logf("a client that did not read got %d of %d bytes, then the connection ended", got, asked*len(one))
}

// waitServerClosed waits until the socket of the server at server whose peer is client has left
// ESTABLISHED in /proc/net/tcp (the server closed it, or it is gone), failing after limit.
func waitServerClosed(t *testing.T, server, client string, limit time.Duration) {
	t.Helper()
	hexAddr := func(a string) string {
		ap := netip.MustParseAddrPort(a)
		ip := ap.Addr().As4()
		return fmt.Sprintf("%02X%02X%02X%02X:%04X", ip[3], ip[2], ip[1], ip[0], ap.Port())
	}
	local, remote := hexAddr(server), hexAddr(client)
	established := func() bool {
		table, err := os.ReadFile("/proc/net/tcp")
		if err != nil {
			t.Fatalf("the kernel's socket table: %v", err)
		}
		for _, line := range strings.Split(string(table), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) > 3 && f[1] == local && f[2] == remote {
				return f[3] == "01"
			}
		}
		return false
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	end := time.After(limit)
	for established() {
		select {
		case <-tick.C:
		case <-end:
			t.Fatalf("the server still holds the connection of a client that reads nothing after %s", limit)
		}
	}
}
